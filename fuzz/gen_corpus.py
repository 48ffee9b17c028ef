#!/usr/bin/env python3
"""Generate the seed corpus of each fuzz target from our scenario files and the spec's example
messages. Output goes to a build folder (never committed: the examples are the spec's, not ours).

  gen_corpus.py --out BUILD/fuzz/seeds [--scenarios scenarios] [--examples ../shared/mcp-spec/examples]

Writes OUT/<target>/<sha1>.json for message_parser, scenario_loader, matcher, substitute and
arg_generator, then prints how many seeds each target got. Missing inputs are skipped with a note.
"""
import argparse
import hashlib
import json
import os
import sys

MAX_SEED = 64 * 1024  # libFuzzer's -max_len follows the largest seed; keep that sensible
HERE = os.path.dirname(os.path.abspath(__file__))


def protocol_versions():
    """The versions whose schemas mcpspec embeds (harness/protocol/schemas/<version>/)."""
    root = os.path.join(HERE, "..", "harness", "protocol", "schemas")
    return sorted(d for d in os.listdir(root) if len(d) == 10 and d[4] == "-" and d[:4].isdigit())


# Targets whose first input byte is a choice (fuzz/support/selector_byte.hpp): each seed is
# written once per choice, as the printable byte b with b % choices == k (with 8 choices, the
# digits '0' to '7'). For message_parser, selector % (2 x versions) picks version and sender.
SELECTOR_TARGETS = {"message_parser": 2 * len(protocol_versions())}


def compact(v):
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)


class Corpus:
    def __init__(self, out):
        self.out = out
        self.counts = {}

    def add(self, target, text):
        data = text.encode("utf-8") if isinstance(text, str) else text
        if not data or len(data) > MAX_SEED:
            return
        if target in SELECTOR_TARGETS:
            for k in range(SELECTOR_TARGETS[target]):
                n = SELECTOR_TARGETS[target]
                self.write(target, bytes([0x30 + (k - 0x30) % n]), data)
        else:
            self.write(target, b"", data)

    def write(self, target, selector, data):
        data = selector + data
        folder = os.path.join(self.out, target)
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, hashlib.sha1(data).hexdigest()[:16] + ".json")
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(data)
            self.counts[target] = self.counts.get(target, 0) + 1


def walk(value, fn):
    fn(value)
    if isinstance(value, dict):
        for v in value.values():
            walk(v, fn)
    elif isinstance(value, list):
        for v in value:
            walk(v, fn)


def load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"note: {path}: skipped ({e})", file=sys.stderr)
        return None


def scenario_files(root):
    for dirpath, _, files in os.walk(root):
        for name in sorted(files):
            if name.endswith(".json"):
                yield os.path.join(dirpath, name)


def messages_of_step(step, next_id):
    """The wire messages a step sends, and the matchers it expects."""
    sent, expected = [], []
    if not isinstance(step, dict):
        return sent, expected
    if isinstance(step.get("send"), (dict, list)):
        sent.append(compact(step["send"]))
    if isinstance(step.get("send_raw"), str):
        sent.append(step["send_raw"])
    if isinstance(step.get("request"), str):
        msg = {"jsonrpc": "2.0", "id": next_id, "method": step["request"]}
        if "params" in step:
            msg["params"] = step["params"]
        sent.append(compact(msg))
    if isinstance(step.get("notify"), str):
        msg = {"jsonrpc": "2.0", "method": step["notify"]}
        if "params" in step:
            msg["params"] = step["params"]
        sent.append(compact(msg))
    for key in ("expect", "expect_no"):
        if key in step and step[key] is not None and not isinstance(step[key], (bool, int)):
            expected.append(step[key])
    if isinstance(step.get("expect_unordered"), list):
        expected.extend(step["expect_unordered"])
    if isinstance(step.get("steps"), list):
        for inner in step["steps"]:
            s, e = messages_of_step(inner, next_id)
            sent += s
            expected += e
    return sent, expected


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--scenarios", default=os.path.join(HERE, "..", "scenarios"))
    ap.add_argument("--examples", default=os.path.join(HERE, "..", "..", "shared", "mcp-spec", "examples"))
    args = ap.parse_args()
    corpus = Corpus(args.out)

    examples = []  # every example message of the spec, all versions
    if os.path.isdir(args.examples):
        for name in sorted(os.listdir(args.examples)):
            if not name.endswith(".jsonl"):
                continue
            lines = []
            with open(os.path.join(args.examples, name), encoding="utf-8") as f:
                for line in f:
                    try:
                        rec = json.loads(line)
                    except ValueError:
                        continue
                    msg = rec.get("message") if isinstance(rec, dict) and "message" in rec else rec
                    examples.append(msg)
                    lines.append(compact(msg))
                    corpus.add("message_parser", compact(msg) + "\n")
            # The whole version's examples as one stream: many frames in one input.
            for i in range(0, len(lines), 8):
                corpus.add("message_parser", "\n".join(lines[i:i + 8]) + "\n")
    else:
        print(f"note: {args.examples}: no example messages (skipped)", file=sys.stderr)

    matchers, variable_values = [], []
    if os.path.isdir(args.scenarios):
        for path in scenario_files(args.scenarios):
            doc = load_json(path)
            if doc is None:
                continue
            with open(path, encoding="utf-8") as f:
                corpus.add("scenario_loader", f.read())
            if not isinstance(doc, dict) or not isinstance(doc.get("steps"), list):
                continue
            stream = []
            for i, step in enumerate(doc["steps"]):
                sent, expected = messages_of_step(step, i + 1)
                stream += [s for s in sent if "\n" not in s]
                for s in sent:
                    corpus.add("message_parser", s + "\n")
                matchers += expected
                text = compact(step)
                if "${" in text:
                    variable_values.append(step)
            if stream:
                corpus.add("message_parser", "\n".join(stream) + "\n")
    else:
        print(f"note: {args.scenarios}: no scenarios (skipped)", file=sys.stderr)

    # Matchers against example messages of every kind (match or mismatch, both are useful).
    for i, m in enumerate(matchers):
        if examples:
            corpus.add("matcher", compact([m, examples[i % len(examples)]]))
        corpus.add("matcher", compact([m, m]))

    # Substitution: scenario steps with references, against variables built from the examples.
    vars_ = {"init": {}, "tool": {}, "tools": [], "v": 1}
    for ex in examples:
        res = ex.get("result") if isinstance(ex, dict) else None
        if isinstance(res, dict) and "protocolVersion" in res:
            vars_["init"] = res
        if isinstance(res, dict) and isinstance(res.get("tools"), list) and res["tools"]:
            vars_["tools"] = res["tools"]
            vars_["tool"] = res["tools"][0]
    for step in variable_values:
        corpus.add("substitute", compact([step, vars_]))

    # Argument generation: every inputSchema / outputSchema the examples and scenarios hold.
    def schemas(v):
        if isinstance(v, dict):
            for key in ("inputSchema", "outputSchema", "requestedSchema"):
                if isinstance(v.get(key), dict):
                    corpus.add("arg_generator", compact(v[key]))
    for ex in examples:
        walk(ex, schemas)
    for m in matchers:
        walk(m, schemas)

    for target in sorted(corpus.counts):
        print(f"{target}: {corpus.counts[target]} seeds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
