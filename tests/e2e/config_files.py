#!/usr/bin/env python3
"""`mcpspec run --config FILE [--name NAME]` with each config file format users already have.

- Claude Code's .mcp.json with two stdio servers (args, env): --name runs one, no --name runs both
  with a report per server; the faulty one fails the run.
- Claude Desktop's claude_desktop_config.json: a stdio server with an env variable from ${NAME:-x}.
- VS Code's .vscode/mcp.json (comments allowed): a stdio server whose path uses ${workspaceFolder},
  an http and an sse server whose "headers" reach the server (a recorder that answers 404 and keeps
  the request headers; the run fails there, the headers are what is checked).
- Clear errors (exit 2, naming the file and the entry) for a missing name, a bad file and bad entries.

  config_files.py BINDIR
"""
import http.server
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import Checks  # noqa: E402
import threading

BIN = os.path.abspath(sys.argv[1])
MCPSPEC = os.path.join(BIN, "mcpspec")
SERVER = os.path.join(BIN, "mcpspec-testserver")
check = Checks("config files")


def run(*args, cwd=None):
    done = subprocess.run([MCPSPEC, "run", "--filter", "mcp/ping/*", "-j", "2", "--timeout-ms", "3000", *args],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=240, cwd=cwd)
    return done.returncode, done.stdout


def write(path, content):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(content if isinstance(content, str) else json.dumps(content))


def results_of(path):
    with open(path) as f:
        return json.load(f)


class Recorder(http.server.BaseHTTPRequestHandler):
    seen = []

    def answer(self):
        Recorder.seen.append((self.command, self.path, dict(self.headers)))
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_POST = do_DELETE = answer

    def log_message(self, *args):
        pass


def main():
    with tempfile.TemporaryDirectory(prefix="mcpspec-config-") as d:
        return checks(d)


def checks(d):

    # Claude Code: .mcp.json
    mcp_json = os.path.join(d, "proj", ".mcp.json")
    write(mcp_json, {"mcpServers": {
        "good": {"command": SERVER, "args": ["--profile", "minimal"], "env": {"MCPSPEC_CFG_TEST": "it's set"}},
        "faulty": {"type": "stdio", "command": SERVER, "args": ["--fault", "duplicate-response"]},
    }})
    code, out = run("--config", mcp_json, "--name", "good", "--report", "json:" + os.path.join(d, "good.json"))
    check(code == 0, f".mcp.json --name good: exit {code}\n{out}")
    rep = results_of(os.path.join(d, "good.json")) if os.path.exists(os.path.join(d, "good.json")) else {}
    check("MCPSPEC_CFG_TEST='it'\\''s set' exec" in rep.get("run", {}).get("target", ""),
          f"the env assignment is not in the server command: {rep.get('run', {}).get('target')}")
    check(rep and rep["summary"]["pass"] > 0, ".mcp.json good server: nothing passed")
    code, out = run("--config", mcp_json, "--report", "json:" + os.path.join(d, "all.json"), "--report",
                    "html:" + os.path.join(d, "all.html"))
    check(code == 1, f".mcp.json, every server: exit {code}, expected 1 (the faulty one)\n{out}")
    check(os.path.exists(os.path.join(d, "all.good.json")) and os.path.exists(os.path.join(d, "all.faulty.json")),
          f"expected a report per server, got {sorted(os.listdir(d))}")
    check("=== target good" in out and "=== target faulty" in out, f"both servers should be announced:\n{out}")
    matrix = open(os.path.join(d, "all.html")).read() if os.path.exists(os.path.join(d, "all.html")) else ""
    check("<th>good</th><th>faulty</th>" in matrix and os.path.exists(os.path.join(d, "all.faulty.html")),
          "html:PATH with several servers should be the matrix of all of them (and a page per server)")

    # Claude Desktop
    desktop = os.path.join(d, "claude_desktop_config.json")
    write(desktop, {"mcpServers": {"only": {"command": SERVER, "env": {"LEVEL": "${MCPSPEC_UNSET_VAR:-fallback}"}}}})
    code, out = run("--config", desktop, "--report", "json:" + os.path.join(d, "desk.json"))
    check(code == 0, f"claude_desktop_config.json: exit {code}\n{out}")
    check("LEVEL='fallback'" in results_of(os.path.join(d, "desk.json"))["run"]["target"], "${NAME:-default} not applied")

    # VS Code, with a header recorder for the network entries
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    port = httpd.server_address[1]
    ws = os.path.join(d, "ws")
    os.makedirs(os.path.join(ws, "bin"))
    os.symlink(SERVER, os.path.join(ws, "bin", "srv"))
    vscode = os.path.join(ws, ".vscode", "mcp.json")
    write(vscode, "// VS Code allows comments\n" + json.dumps({"servers": {
        "local": {"type": "stdio", "command": "${workspaceFolder}/bin/srv"},
        "remote": {"type": "http", "url": f"http://127.0.0.1:{port}/mcp", "headers": {"Authorization": "Bearer ${env:MCPSPEC_CFG_TOKEN}"}},
        "legacy": {"type": "sse", "url": f"http://127.0.0.1:{port}/sse", "headers": {"X-Api-Key": "k-123"}},
    }}))
    os.environ["MCPSPEC_CFG_TOKEN"] = "tok-456"
    code, out = run("--config", vscode, "--name", "local")
    check(code == 0, f".vscode/mcp.json local (${{workspaceFolder}}): exit {code}\n{out}")
    run("--config", vscode, "--name", "remote")
    run("--config", vscode, "--name", "legacy", "--protocol", "2024-11-05")
    httpd.shutdown()
    auth = [h.get("Authorization") for m, p, h in Recorder.seen if p.startswith("/mcp")]
    key = [h.get("X-Api-Key") for m, p, h in Recorder.seen if p.startswith("/sse")]
    check(auth and all(a == "Bearer tok-456" for a in auth), f"http requests' Authorization headers: {auth}")
    check(key and all(k == "k-123" for k in key), f"sse requests' X-Api-Key headers: {key}")

    # Errors: exit 2, naming the file and the place.
    bad = os.path.join(d, "bad.json")
    cases = [
        ("{nope", "not valid JSON"),
        ({"other": {}}, "no \"mcpServers\""),
        ({"mcpServers": {"a": {"args": ["x"]}}}, "/mcpServers/a: a stdio server needs \"command\""),
        ({"mcpServers": {"a": {"command": "x", "args": "y"}}}, "/mcpServers/a/args: must be an array"),
        ({"mcpServers": {"a": {"command": "x", "env": {"BAD NAME": "1"}}}}, "/mcpServers/a/env/BAD NAME: is not a valid"),
        ({"servers": {"a": {"type": "carrier-pigeon", "url": "http://x"}}}, "/servers/a/type: \"carrier-pigeon\""),
        ({"servers": {"a": {"type": "http"}}}, "/servers/a: an http server needs \"url\""),
        ({"servers": {"a": {"type": "http", "url": "https://example.com/mcp"}}}, "plain http:// only"),
        ({"servers": {"a": {"command": "${input:token}"}}}, "${input:token} is asked of the user by VS Code"),
        ({"servers": {"a": {"command": "${env:MCPSPEC_SURELY_UNSET}"}}}, "MCPSPEC_SURELY_UNSET is not set"),
        ({"servers": {}}, "lists no server"),
    ]
    for content, expected in cases:
        write(bad, content)
        code, out = run("--config", bad)
        check(code == 2 and bad in out and expected in out, f"bad config {content!r}: expected exit 2 and '{expected}', got {code}:\n{out}")
    code, out = run("--config", mcp_json, "--name", "godo")
    check(code == 2 and "has no server of that name (did you mean 'good'?)" in out and "good, faulty" in out,
          f"missing name: {code}\n{out}")
    code, out = run("--config", os.path.join(d, "absent.json"))
    check(code == 2 and "cannot open the file" in out, f"absent file: {code}\n{out}")
    code, out = run("--name", "good")
    check(code == 2 and "--name picks a server of --config" in out, f"--name alone: {code}\n{out}")
    code, out = run("--config", mcp_json, "--server", "x")
    check(code == 2 and "cannot be combined" in out, f"--config with --server: {code}\n{out}")

    return check.finish()


if __name__ == "__main__":
    sys.exit(main())
