#!/usr/bin/env python3
"""TLS mode of the client-auth runs (`mcpspec run --client ... --transport http --auth --tls`).

  tls_check.py --mcpspec BIN --src DIR

1. The test client, given the throwaway CA by SSL_CERT_FILE, passes a few auth scenarios over
   https (the endpoint's URL in the wire log is https://; the mock authorization server is the
   https issuer PRM names, so its metadata, /register, /authorize and /token are fetched over TLS).
2. The same client with SSL_CERT_FILE removed cannot verify the certificate and the run fails:
   the certificate is really checked, not waved through.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

SCENARIOS = ["scenarios/mcp/auth-client/pkce/pkce-s256.json",
             "scenarios/mcp/auth-client/token/bearer-on-every-request.json"]


def run(a, client, report, scenarios):
    cmd = [a.mcpspec, "run", "--client", client, "--transport", "http", "--auth", "--tls", "--strict",
           "--protocol", "2025-11-25", "--startup-timeout-ms", "5000", "--report", "json:" + report] + [os.path.join(a.src, s) for s in scenarios]
    print("$", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=100, cwd=a.src)
    print(proc.stdout[-4000:])
    results = json.load(open(report))["results"] if os.path.exists(report) else []
    return proc.returncode, results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mcpspec", required=True)
    ap.add_argument("--src", required=True)
    a = ap.parse_args()
    client = "%s %s/tests/auth/auth_test_client.py {url}" % (sys.executable, a.src)
    with tempfile.TemporaryDirectory(prefix="mcpspec-tls-check-") as tmp:
        code, results = run(a, client, os.path.join(tmp, "good.json"), SCENARIOS)
        wire = json.dumps([r.get("wire", []) for r in results])
        if code != 0 or len(results) != len(SCENARIOS) or any(r["verdict"] != "pass" for r in results):
            print("FAIL: the client given the CA does not pass over https (exit %d)" % code)
            return 1
        if "listening on https://127.0.0.1:" not in wire:
            print("FAIL: the endpoint was not served over https")
            return 1
        # (One scenario: it ends as soon as the client does; pkce-s256 would wait out its positive control.)
        code, results = run(a, "env -u SSL_CERT_FILE " + client, os.path.join(tmp, "untrusted.json"), SCENARIOS[1:])
        if code == 0 or any(r["verdict"] == "pass" for r in results):
            print("FAIL: a client without the CA passed: the certificate was not verified")
            return 1
    print("PASS: https with the throwaway CA; refused without it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
