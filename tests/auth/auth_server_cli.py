#!/usr/bin/env python3
"""`mcpspec auth-server` as a user runs it: the mock authorization server alone, a protected MCP
server pointed at it by hand.

  auth_server_cli.py BINDIR

1. The printed lines name the issuer, metadata, JWKS, introspection and token URLs; the metadata
   at the printed URL names the same issuer and JWKS; the JWKS holds the key the minted token's
   header names.
2. The protected test server (mcpspec-auth-testserver) started with MCP_CONFORMANCE_AUTH_SERVER_URL
   set to the printed issuer serves a request carrying the minted token, refuses one without a
   token (401) and one with a token of another audience (the second --mint) and a forged one.
3. SIGTERM ends it at once with exit 0, and --log holds every request it answered.
4. `run --server CMD --transport http --auth` gives CMD the issuer and JWKS URLs under the same names.
5. Bad arguments end with exit 2 and a line naming the argument; a port already in use is named.
"""
import base64
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import Checks  # noqa: E402
from loopback import free_port  # noqa: E402


def read_vars(proc, want, deadline):
    """The KEY=value lines auth-server prints, until every key of `want` came or the deadline."""
    got = {}
    while time.monotonic() < deadline and not want <= set(got):
        line = proc.stdout.readline()
        if not line:
            break
        if "=" in line:
            k, v = line.rstrip("\n").split("=", 1)
            got[k] = v
    return got


def get_json(url):
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.load(r)


def post(url, body, headers):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers=dict({"Content-Type": "application/json",
                                               "Accept": "application/json, text/event-stream"}, **headers))
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def wait_listening(port, deadline):
    import socket
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


def main():
    bindir = sys.argv[1]
    mcpspec = os.path.join(bindir, "mcpspec")
    check = Checks("mcpspec auth-server")
    mcp_port = free_port()
    resource = "http://127.0.0.1:%d/mcp" % mcp_port
    log_path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "mcpspec-auth-server-%d.jsonl" % os.getpid())
    proc = subprocess.Popen([mcpspec, "auth-server", "--mint", resource, "--mint", "https://elsewhere.invalid/mcp",
                             "--scope", "mcp:read mcp:admin", "--log", log_path, "--duration", "60"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    server = None
    try:
        keys = {"MCP_CONFORMANCE_AUTH_SERVER_URL", "MCPSPEC_AUTH_METADATA_URL", "MCPSPEC_AUTH_JWKS_URL",
                "MCPSPEC_AUTH_INTROSPECTION_URL", "MCPSPEC_AUTH_TOKEN_URL", "MCPSPEC_AUTH_TOKEN", "MCPSPEC_AUTH_TOKEN_2"}
        v = read_vars(proc, keys, time.monotonic() + 15)
        if not check(keys <= set(v), "printed lines: %s" % sorted(v)):
            return check.finish()
        issuer = v["MCP_CONFORMANCE_AUTH_SERVER_URL"]
        meta = get_json(v["MCPSPEC_AUTH_METADATA_URL"])
        check(meta.get("issuer") == issuer, "metadata issuer %r, printed %r" % (meta.get("issuer"), issuer))
        check(meta.get("jwks_uri") == v["MCPSPEC_AUTH_JWKS_URL"], "metadata jwks_uri %r" % meta.get("jwks_uri"))
        header = json.loads(base64.urlsafe_b64decode(v["MCPSPEC_AUTH_TOKEN"].split(".")[0] + "=="))
        kids = [k.get("kid") for k in get_json(v["MCPSPEC_AUTH_JWKS_URL"]).get("keys", [])]
        check(header.get("kid") in kids, "the token's kid %r is not in the JWKS %s" % (header.get("kid"), kids))

        env = dict(os.environ, MCP_CONFORMANCE_AUTH_SERVER_URL=issuer, PORT=str(mcp_port))
        server = subprocess.Popen([os.path.join(bindir, "mcpspec-auth-testserver")], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        check(wait_listening(mcp_port, time.monotonic() + 15), "the protected test server did not listen")
        init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                           "clientInfo": {"name": "auth-server-cli", "version": "1"}}}
        ok = post(resource, init, {"Authorization": "Bearer " + v["MCPSPEC_AUTH_TOKEN"]})
        check(ok == 200, "the minted token was not served: HTTP %s" % ok)
        none = post(resource, init, {})
        check(none == 401, "no token: HTTP %s, want 401" % none)
        other = post(resource, init, {"Authorization": "Bearer " + v["MCPSPEC_AUTH_TOKEN_2"]})
        check(other in (401, 403), "a token minted for another audience: HTTP %s, want 401" % other)
        forged = post(resource, init, {"Authorization": "Bearer " + v["MCPSPEC_AUTH_TOKEN"][:-4] + "AAAA"})
        check(forged == 401, "a forged token: HTTP %s, want 401" % forged)

        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=15)
        check(code == 0 and time.monotonic() - started < 10, "SIGTERM: exit %s" % code)
        err = proc.stderr.read()
        check("POST /introspect -> 200" in err, "no request line for the introspection on stderr: %s" % err[-400:])
        with open(log_path) as fh:
            entries = [json.loads(line) for line in fh if line.strip()]
        check(any(e.get("path") == "/introspect" for e in entries) and
              any(e.get("path") == "/jwks" for e in entries), "--log: %s" % [e.get("path") for e in entries])
    finally:
        for p in (proc, server):
            if p and p.poll() is None:
                p.kill()
                p.wait()
        if os.path.exists(log_path):
            os.unlink(log_path)

    # Mock-AS mode hands the server under test the same two URLs (issuer and JWKS) in the same names.
    env_file = os.path.join(os.environ.get("TMPDIR", "/tmp"), "mcpspec-auth-env-%d" % os.getpid())
    wrapper = "echo \"$MCP_CONFORMANCE_AUTH_SERVER_URL $MCPSPEC_AUTH_JWKS_URL\" > %s; exec %s" % (
        env_file, os.path.join(bindir, "mcpspec-auth-testserver"))
    try:
        subprocess.run([mcpspec, "run", "--server", wrapper, "--transport", "http", "--auth", "--quiet"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        with open(env_file) as fh:
            issuer, jwks = (fh.read().split() + ["", ""])[:2]
        check(issuer.startswith("http://127.0.0.1:") and jwks == issuer + "/jwks",
              "mock-AS mode gave the server issuer %r and JWKS %r" % (issuer, jwks))
    except (OSError, subprocess.TimeoutExpired) as e:
        check(False, "mock-AS mode run: %s" % e)
    finally:
        if os.path.exists(env_file):
            os.unlink(env_file)

    # Bad arguments, each named.
    busy = subprocess.Popen([mcpspec, "auth-server", "--duration", "20"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        port = read_vars(busy, {"MCP_CONFORMANCE_AUTH_SERVER_URL"}, time.monotonic() + 15).get(
            "MCP_CONFORMANCE_AUTH_SERVER_URL", "").rsplit(":", 1)[-1]
        cases = [(["--alg", "HS256"], "--alg HS256"), (["--issuer-path", "tenant/"], "--issuer-path tenant/"),
                 (["--client-secret", "s"], "--client-secret needs --client-id"), (["--port", "70000"], "--port"),
                 (["--port", port], "127.0.0.1:" + port)]
        for args, named in cases:
            done = subprocess.run([mcpspec, "auth-server", "--duration", "1"] + args, capture_output=True, text=True,
                                  timeout=15)
            check(done.returncode == 2 and named in done.stderr,
                  "auth-server %s: exit %d, stderr %r (want 2 naming %r)" % (" ".join(args), done.returncode,
                                                                            done.stderr[-300:], named))
    finally:
        busy.kill()
        busy.wait()
    return check.finish()


if __name__ == "__main__":
    sys.exit(main())
