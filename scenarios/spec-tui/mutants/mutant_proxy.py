#!/usr/bin/env python3
"""A deliberately broken speckit-agent or spec-tui: proves the two suites catch the bugs that matter.

The proxy sits on a newline-delimited JSON-RPC stdio connection and breaks one thing (a "mutant").
It reads the peer that started it on stdin, starts the other side as a child, and forwards both
ways, rewriting or dropping messages as the mutant says:

  agent mutants   mcpspec -> proxy (stdin) -> speckit-agent (child)    --server 'mutant_proxy.py M -- speckit-agent'
  client mutants  spec-tui -> proxy (stdin) -> mcpspec bridge (child)  spec-tui ... -- mutant_proxy.py M -- {server}

In both cases "inbound" is what the proxy's stdin brings (the harness's requests to the agent, or
spec-tui's messages to the harness), "outbound" what the child answers.

    mutant_proxy.py MUTANT -- COMMAND [ARGS...]
    mutant_proxy.py --list

Standard library only; the proxy exits when either side ends, and never outlives its child.
"""
import json
import os
import subprocess
import sys
import threading


class Proxy:
    def __init__(self, mutant, command):
        self.mutant = mutant
        self.child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.out_lock = threading.Lock()
        self.child_lock = threading.Lock()
        self.token_to_id = {}  # progress token -> id of the call that asked for it

    def emit(self, msg):
        with self.out_lock:
            sys.stdout.write(json.dumps(msg, separators=(",", ":")) + "\n")
            sys.stdout.flush()

    def to_child(self, msg):
        with self.child_lock:
            try:
                self.child.stdin.write((json.dumps(msg, separators=(",", ":")) + "\n").encode())
                self.child.stdin.flush()
            except (BrokenPipeError, ValueError):
                pass

    def stop(self, status=0):
        try:
            self.child.kill()
        except OSError:
            pass
        sys.stdout.flush()
        os._exit(status)

    # ---- the mutants: each returns the messages to forward instead of `msg` ----
    def inbound(self, msg):
        m = self.mutant
        method = msg.get("method")
        params = msg.get("params") if isinstance(msg.get("params"), dict) else {}
        if method == "tools/call":
            token = (params.get("_meta") or {}).get("progressToken")
            if token is not None:
                self.token_to_id[json.dumps(token)] = msg.get("id")
        if m == "agent-exit-before-shutdown-answer" and method == "shutdown":
            self.stop(0)
        if m == "agent-relative-spec-directory-accepted" and method == "tools/call":
            args = params.get("arguments")
            if isinstance(args, dict) and isinstance(args.get("spec_directory"), str):
                if not args["spec_directory"].startswith("/"):
                    args["spec_directory"] = os.path.join(os.getcwd(), args["spec_directory"])
                else:  # what a resolving agent would make of '..'
                    args["spec_directory"] = os.path.normpath(args["spec_directory"])
        if m == "agent-cancellation-ignored" and method in ("$/cancelRequest", "notifications/cancelled"):
            return []
        if m == "client-no-cancel-on-timeout" and method == "$/cancelRequest":
            return []
        if m == "client-exit-before-shutdown-answer" and method == "shutdown":
            return [msg, {"jsonrpc": "2.0", "method": "exit"}]
        if m == "client-progress-token-ignored" and method == "tools/call":
            params.pop("_meta", None)
        return [msg]

    def outbound(self, msg):
        m = self.mutant
        if msg.get("method") == "notifications/progress":
            if m == "agent-no-progress":
                return []
            if m == "agent-progress-token-ignored":
                p = msg.get("params", {})
                call_id = self.token_to_id.get(json.dumps(p.get("progressToken")))
                p["progressToken"] = f"tool-{call_id}"
        return [msg]

    # ---- plumbing ----
    @staticmethod
    def forward(lines, mutate, send, raw_out, raw_lock):
        """Each line of `lines`: a JSON object goes through `mutate`, whatever else is copied as is."""
        for raw in lines:
            try:
                msg = json.loads(raw)
            except ValueError:
                with raw_lock:
                    try:
                        raw_out.write(raw)
                        raw_out.flush()
                    except (BrokenPipeError, ValueError):
                        pass
                continue
            for out in mutate(msg) if isinstance(msg, dict) else [msg]:
                send(out)

    def pump_outbound(self):
        self.forward(self.child.stdout, self.outbound, self.emit, sys.stdout.buffer, self.out_lock)
        # The child closed its output: leave with its exit status, as the real program would.
        try:
            status = self.child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            status = 1
        self.stop(status if status >= 0 else 128 - status)

    def run(self):
        threading.Thread(target=self.pump_outbound, daemon=True).start()
        self.forward(sys.stdin.buffer, self.inbound, self.to_child, self.child.stdin, self.child_lock)
        with self.child_lock:
            self.child.stdin.close()
        try:
            status = self.child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            status = 1
        self.stop(status)


# mutant -> (program, what it breaks, the scenarios that must catch it)
MUTANTS = {
    "agent-none": ("agent", "control: forwards everything unchanged", []),
    "agent-exit-before-shutdown-answer": ("agent", "exits on shutdown without answering it",
                                          ["speckit-agent/shutdown/shutdown-then-exit",
                                           "speckit-agent/shutdown/requests-refused-after-shutdown"]),
    "agent-progress-token-ignored": ("agent", "names progress tool-<request id> instead of the caller's token",
                                     ["speckit-agent/progress/sent-with-token", "speckit-agent/progress/integer-token"]),
    "agent-relative-spec-directory-accepted": ("agent", "resolves a relative or '..' spec_directory instead of refusing it",
                                               ["speckit-agent/errors/relative-spec-directory"]),
    "agent-no-progress": ("agent", "sends no progress notifications",
                          ["speckit-agent/progress/sent-with-token", "speckit-agent/progress/integer-token",
                           "speckit-agent/cancellation/cancel-request-answers-32002"]),
    "agent-cancellation-ignored": ("agent", "ignores $/cancelRequest and notifications/cancelled",
                                   ["speckit-agent/cancellation/cancel-request-answers-32002",
                                    "speckit-agent/cancellation/cancelled-notification-stops-silently"]),
    "client-none": ("spec-tui", "control: forwards everything unchanged", []),
    "client-no-cancel-on-timeout": ("spec-tui", "sends no $/cancelRequest when a call times out",
                                    ["spec-tui/timeout/cancel-request-on-timeout"]),
    "client-exit-before-shutdown-answer": ("spec-tui", "sends exit right after shutdown, before its answer",
                                           ["spec-tui/shutdown/exit-after-shutdown-answer"]),
    "client-progress-token-ignored": ("spec-tui", "sends tools/call without a progress token",
                                      ["spec-tui/progress/token-in-call", "spec-tui/progress/updates-then-result"]),
}


def main(argv):
    if argv[1:] == ["--list"]:
        for name, (program, bug, _) in MUTANTS.items():
            print(f"{name:40} {program:9} {bug}")
        return 0
    if len(argv) < 4 or argv[2] != "--" or argv[1] not in MUTANTS:
        sys.stderr.write("usage: mutant_proxy.py MUTANT -- COMMAND [ARGS...]   (mutants: --list)\n")
        return 2
    try:
        Proxy(argv[1], argv[3:]).run()
    except OSError as e:
        sys.stderr.write(f"mutant_proxy.py: cannot start {argv[3]}: {e}\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
