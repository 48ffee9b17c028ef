#!/usr/bin/env python3
"""A small MCP client that authorizes with OAuth 2.1 the way MCP requires, with injectable auth
faults, for testing mcpspec's client-auth checks (`mcpspec run --client ... --transport http --auth`,
scenarios/mcp/auth-client). Standard library only; shares no code with the harness.

  auth_test_client.py [--fault NAME] URL

Follows the official conformance suite's process contract: the server URL is the last argument,
MCP_CONFORMANCE_CONTEXT may hold pre-registered {"client_id", "client_secret"}; and mcpspec's driver
protocol: MCPSPEC_CONTEXT "actions" (list_tools, call_tool, ping, wait_ms) run after the handshake.

Correct behaviour: a 401 is answered by discovery (the challenge's resource_metadata URL, else the
path-based then the root well-known), the PRM `resource` must be the URL it was given, AS metadata
is fetched at the issuer's well-knowns in the order MCP fixes, and refused when its issuer differs
or it lacks S256 in code_challenge_methods_supported; registration is pre-registered, else a client
ID metadata document when the AS supports it and the context names one, else dynamic; /authorize
carries PKCE S256, state and resource (the canonical URI); the redirect is read from Location
without following it (no browser), its state and iss checked (RFC 9207 §2.4); /token carries the
verifier and resource; every MCP request carries the token in the Authorization header; a 403
insufficient_scope is met by re-authorizing with the union of scopes (at most 3 times); a 401
invalid_token by the refresh grant (with resource). At 2026-07-28 and later the MCP side is
stateless: server/discover instead of initialize, params._meta and Mcp-Method (Mcp-Name) on every
request.
"""
import base64
import hashlib
import http.client
import http.server
import json
import os
import secrets
import ssl
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from fault_client import parse_fault_client_args  # noqa: E402

FAULTS = {
    "no-pkce": "sends no code_challenge (AUTH-41)",
    "plain-pkce": "uses code_challenge_method=plain (AUTH-42)",
    "no-resource": "sends no resource parameter (AUTH-44)",
    "wrong-resource": "sends the origin instead of the MCP endpoint URI as resource (AUTH-45)",
    "token-in-query": "puts the access token in the query string instead of the header (AUTH-68)",
    "header-once": "sends the token only on initialize, not on later requests (AUTH-67)",
    "no-step-up": "gives up on 403 insufficient_scope instead of re-authorizing (AUTH-63)",
    "skip-state-check": "uses a code whose state does not match (AUTH-72)",
    "ignore-pkce-support": "proceeds although the AS lacks code_challenge_methods_supported (AUTH-43)",
    "root-prm-first": "asks the root PRM well-known before the path-based one (AUTH-29)",
    "oidc-first": "asks OpenID configuration before RFC 8414 metadata (AUTH-36)",
    "ignore-prm-resource": "uses PRM whose resource is another server's (AUTH-30)",
    "ignore-header-prm": "ignores resource_metadata in the challenge and probes the well-knowns (AUTH-28)",
    "unregistered-redirect": "sends a redirect_uri it never registered (AUTH-71)",
    "ignore-challenge-scope": "asks for PRM's scopes_supported even when the challenge names a scope (AUTH-61)",
    "first-challenge-only": "reads only the first challenge of WWW-Authenticate (AUTH-26)",
    "no-retry-limit": "re-authorizes on every 403 insufficient_scope without a limit (AUTH-65)",
    "no-version-on-discovery": "2025-03-26: fetches the metadata without MCP-Protocol-Version (AUTH-40)",
    "cimd-wrong-client-id": "hosts a client ID metadata document whose client_id is not its URL (AUTH-56)",
    "ignore-issuer-mismatch": "uses AS metadata whose issuer is not the issuer it asked (AUTH-34; AUTH-37 in 2026-07-28)",
    "ignore-iss": "2026-07-28: never compares the redirect's iss with the issuer (AUTH-74)",
    "ignore-missing-iss": "2026-07-28: accepts a redirect without iss although the AS advertises it (AUTH-75)",
    "iss-only-when-advertised": "2026-07-28: compares iss only when the AS advertises it (AUTH-76)",
    "require-iss": "2026-07-28: refuses a redirect without iss although the AS does not advertise it (AUTH-77)",
    "normalize-iss": "2026-07-28: compares iss after dropping a trailing slash (AUTH-78)",
    "no-application-type": "registers dynamically without application_type (AUTH-58 in 2026-07-28)",
    "unknown-client-id": "asks /authorize with a client_id it never obtained (AUTH-52 in 2026-07-28)",
}
REDIRECT = "http://localhost:3000/callback"
FIRST_CHALLENGE_ONLY = False  # the first-challenge-only fault


def log(text):
    sys.stderr.write("auth-test-client: %s\n" % text)
    sys.stderr.flush()


class Refused(Exception):
    """The client decided not to go on (a check it must make failed)."""


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def parse_challenge(value):
    """The Bearer challenge's parameters (a small RFC 9110 reader: quoted strings, escapes)."""
    out, i, n = {}, 0, len(value)
    lower = value.lower()
    start = lower.find("bearer")
    if start < 0:
        return None
    if FIRST_CHALLENGE_ONLY:
        start = 0
    i = start + len("bearer")
    while i < n:
        while i < n and value[i] in " ,\t":
            i += 1
        j = i
        while j < n and value[j] not in "= ,":
            j += 1
        name = value[i:j].strip().lower()
        if j >= n or value[j] != "=":
            break
        j += 1
        if j < n and value[j] == '"':
            j += 1
            v = []
            while j < n and value[j] != '"':
                if value[j] == "\\" and j + 1 < n:
                    j += 1
                v.append(value[j])
                j += 1
            j += 1
            out[name] = "".join(v)
        else:
            k = j
            while k < n and value[k] not in " ,":
                k += 1
            out[name] = value[j:k]
            j = k
        i = j
    return out


def http_request(method, url, body=None, headers=None, timeout=15):
    u = urllib.parse.urlsplit(url)
    if u.scheme == "https":
        # The default context verifies the certificate against the trusted CAs, which SSL_CERT_FILE
        # names (mcpspec's --tls sets it to its throwaway CA).
        conn = http.client.HTTPSConnection(u.hostname, u.port, timeout=timeout, context=ssl.create_default_context())
    else:
        conn = http.client.HTTPConnection(u.hostname, u.port, timeout=timeout)
    target = u.path or "/"
    if u.query:
        target += "?" + u.query
    conn.request(method, target, body=body, headers=headers or {})
    resp = conn.getresponse()
    data = resp.read()
    conn.close()
    return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data


def host_client_metadata(fault):
    """Serves this client's ID metadata document on 127.0.0.1 (a loopback stand-in for its https
    home); returns the document URL."""
    doc = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = json.dumps(doc).encode()
            self.send_response(200 if self.path == "/client.json" else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    url = "http://127.0.0.1:%d/client.json" % server.server_address[1]
    doc.update({"client_id": url if fault != "cimd-wrong-client-id" else url + "?other",
                "client_name": "mcpspec auth test client", "redirect_uris": [REDIRECT],
                "grant_types": ["authorization_code", "refresh_token"], "token_endpoint_auth_method": "none"})
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return url


class AuthClient:
    def __init__(self, url, fault, context, official):
        self.url, self.fault, self.context, self.official = url, fault, context, official
        u = urllib.parse.urlsplit(url)
        self.origin = "%s://%s" % (u.scheme, u.netloc)
        self.path = u.path
        self.token = None
        self.refresh = None
        self.scopes = set()
        self.as_meta = None
        self.client_id = None
        self.client_secret = None
        self.auth_method = "none"
        self.session = None
        self.version = None
        self.modern = False  # 2026-07-28 and later: stateless
        self.next_id = 1
        self.authorizations = 0

    # ---- discovery -------------------------------------------------------------------------
    def prm_candidates(self, challenge):
        path_based = self.origin + "/.well-known/oauth-protected-resource" + (self.path if self.path != "/" else "")
        root = self.origin + "/.well-known/oauth-protected-resource"
        order = [path_based, root] if path_based != root else [root]
        if self.fault == "root-prm-first":
            order = [root, path_based]
        if challenge and challenge.get("resource_metadata") and self.fault != "ignore-header-prm":
            return [challenge["resource_metadata"]]
        return order

    def discover_2025_03_26(self):
        """2025-03-26: no PRM; the metadata is at the MCP server's origin (path discarded)."""
        url = self.origin + "/.well-known/oauth-authorization-server"
        headers = {} if self.fault == "no-version-on-discovery" else {"MCP-Protocol-Version": "2025-03-26"}
        status, _, data = http_request("GET", url, headers=headers)
        if status != 200:
            raise Refused("no authorization server metadata at %s" % url)
        self.as_meta = json.loads(data)
        self.issuer = self.as_meta.get("issuer")
        self.prm = {}

    def discover(self, challenge):
        if self.proposed == "2025-03-26":
            return self.discover_2025_03_26()
        prm = None
        for url in self.prm_candidates(challenge):
            status, _, data = http_request("GET", url)
            if status == 200:
                prm = json.loads(data)
                break
        if prm is None:
            raise Refused("no protected resource metadata found")
        if prm.get("resource") != self.url and self.fault != "ignore-prm-resource":
            raise Refused("PRM resource %r is not %r" % (prm.get("resource"), self.url))
        self.prm = prm
        issuer = prm["authorization_servers"][0]
        iu = urllib.parse.urlsplit(issuer)
        ipath = iu.path.rstrip("/")
        iorigin = "%s://%s" % (iu.scheme, iu.netloc)
        if ipath:
            urls = [iorigin + "/.well-known/oauth-authorization-server" + ipath,
                    iorigin + "/.well-known/openid-configuration" + ipath,
                    iorigin + ipath + "/.well-known/openid-configuration"]
        else:
            urls = [iorigin + "/.well-known/oauth-authorization-server", iorigin + "/.well-known/openid-configuration"]
        if self.fault == "oidc-first":
            urls = urls[1:] + urls[:1]
        for url in urls:
            status, _, data = http_request("GET", url)
            if status == 200:
                meta = json.loads(data)
                if meta.get("issuer") != issuer and self.fault != "ignore-issuer-mismatch":
                    raise Refused("metadata issuer %r is not %r" % (meta.get("issuer"), issuer))
                if "S256" not in (meta.get("code_challenge_methods_supported") or []) and self.fault != "ignore-pkce-support":
                    raise Refused("the authorization server does not list S256 in code_challenge_methods_supported")
                self.as_meta = meta
                self.issuer = issuer
                return
        raise Refused("no authorization server metadata found")

    # ---- registration ----------------------------------------------------------------------
    def register(self):
        if self.client_id:
            return
        if self.official.get("client_id"):
            self.client_id = self.official["client_id"]
            self.client_secret = self.official.get("client_secret")
            methods = self.as_meta.get("token_endpoint_auth_methods_supported", ["client_secret_basic"])
            self.auth_method = "none" if not self.client_secret else (
                "client_secret_basic" if "client_secret_basic" in methods else "client_secret_post")
            return
        cimd = self.context.get("client_metadata_url")
        if cimd and self.as_meta.get("client_id_metadata_document_supported"):
            self.client_id = cimd
            return
        if not self.as_meta.get("registration_endpoint"):
            raise Refused("no way to obtain a client id")
        body = {"client_name": "mcpspec auth test client", "redirect_uris": [REDIRECT],
                "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
                "token_endpoint_auth_method": "none", "application_type": "native"}
        if self.fault == "no-application-type":
            del body["application_type"]
        status, _, data = http_request("POST", self.as_meta["registration_endpoint"], json.dumps(body),
                                       {"Content-Type": "application/json"})
        if status != 201:
            raise Refused("registration failed: %d %s" % (status, data[:200]))
        reg = json.loads(data)
        self.client_id = reg["client_id"]
        self.client_secret = reg.get("client_secret")
        self.auth_method = reg.get("token_endpoint_auth_method", "none")

    # ---- authorization ---------------------------------------------------------------------
    def authorize(self, wanted_scopes):
        self.authorizations += 1
        if self.authorizations > 3 and self.fault != "no-retry-limit":
            raise Refused("giving up after 3 authorizations")
        self.register()
        verifier = b64url(secrets.token_bytes(32))
        state = b64url(secrets.token_bytes(16))
        client_id = "mcpspec-made-up-client" if self.fault == "unknown-client-id" else self.client_id
        params = {"response_type": "code", "client_id": client_id,
                  "redirect_uri": REDIRECT if self.fault != "unregistered-redirect" else "http://localhost:3999/other",
                  "state": state}
        if self.fault == "plain-pkce":
            params.update(code_challenge=verifier, code_challenge_method="plain")
        elif self.fault != "no-pkce":
            params.update(code_challenge=b64url(hashlib.sha256(verifier.encode()).digest()), code_challenge_method="S256")
        resource = self.origin if self.fault == "wrong-resource" else self.url
        if self.fault != "no-resource":
            params["resource"] = resource
        if wanted_scopes:
            params["scope"] = " ".join(sorted(wanted_scopes))
        endpoint = self.as_meta["authorization_endpoint"]
        status, headers, data = http_request("GET", endpoint + ("&" if "?" in endpoint else "?") +
                                             urllib.parse.urlencode(params))
        if status != 302 or "location" not in headers:
            raise Refused("authorization refused: %d %s" % (status, data[:200]))
        back = urllib.parse.parse_qs(urllib.parse.urlsplit(headers["location"]).query)
        got = {k: v[0] for k, v in back.items()}
        if got.get("state") != state and self.fault != "skip-state-check":
            raise Refused("the redirect's state does not match")
        # RFC 9207 §2.4: compare iss when present (a simple string comparison), require it when advertised.
        advertised = self.as_meta.get("authorization_response_iss_parameter_supported") is True
        compare = self.fault != "ignore-iss" and (advertised or self.fault != "iss-only-when-advertised")
        if "iss" in got and compare:
            same = (got["iss"].rstrip("/") == (self.issuer or "").rstrip("/") if self.fault == "normalize-iss"
                    else got["iss"] == self.issuer)
            if not same:
                raise Refused("the redirect's iss %r is not the issuer" % got["iss"])
        if "iss" not in got and (advertised and self.fault != "ignore-missing-iss" or self.fault == "require-iss"):
            raise Refused("the redirect lacks the iss")
        if "code" not in got:
            raise Refused("authorization error: %s" % got.get("error"))
        form = {"grant_type": "authorization_code", "code": got["code"], "redirect_uri": params["redirect_uri"]}
        if self.fault != "no-pkce":
            form["code_verifier"] = verifier
        if self.fault != "no-resource":
            form["resource"] = resource
        self.token_request(form)
        self.scopes = set(wanted_scopes)

    def token_request(self, form):
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        if self.auth_method == "client_secret_basic":
            cred = "%s:%s" % (urllib.parse.quote(self.client_id, safe=""), urllib.parse.quote(self.client_secret, safe=""))
            headers["Authorization"] = "Basic " + base64.b64encode(cred.encode()).decode()
        else:
            form["client_id"] = self.client_id
            if self.auth_method == "client_secret_post":
                form["client_secret"] = self.client_secret
        status, _, data = http_request("POST", self.as_meta["token_endpoint"], urllib.parse.urlencode(form), headers)
        if status != 200:
            raise Refused("token request failed: %d %s" % (status, data[:200]))
        answer = json.loads(data)
        self.token = answer["access_token"]
        self.refresh = answer.get("refresh_token")

    def refresh_grant(self):
        form = {"grant_type": "refresh_token", "refresh_token": self.refresh}
        if self.fault != "no-resource":
            form["resource"] = self.url
        self.refresh = None
        self.token_request(form)

    # ---- MCP over Streamable HTTP ----------------------------------------------------------
    def mcp_headers(self, first, msg):
        h = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if self.session:
            h["Mcp-Session-Id"] = self.session
        if self.version:
            h["MCP-Protocol-Version"] = self.version
        if self.modern and "id" in msg:
            h["Mcp-Method"] = msg["method"]
            name = (msg.get("params") or {}).get("name")
            if msg["method"] == "tools/call" and isinstance(name, str):
                h["Mcp-Name"] = name
        send_token = self.token and self.fault != "token-in-query" and (first or self.fault != "header-once")
        if send_token:
            h["Authorization"] = "Bearer " + self.token
        return h

    def post(self, msg, first=False):
        """POSTs one message, handling 401 (discover, authorize or refresh) and 403 (step-up)."""
        for _ in range(12 if self.fault == "no-retry-limit" else 6):
            url = self.url
            if self.fault == "token-in-query" and self.token:
                url += "?access_token=" + urllib.parse.quote(self.token)
            status, headers, data = http_request("POST", url, json.dumps(msg), self.mcp_headers(first, msg))
            if status in (200, 202):
                if "mcp-session-id" in headers:
                    self.session = headers["mcp-session-id"]
                return self.read_answer(headers, data)
            challenge = parse_challenge(headers.get("www-authenticate", "")) or {}
            if status == 401:
                if self.token and challenge.get("error") == "invalid_token" and self.refresh:
                    self.refresh_grant()
                    continue
                if self.as_meta is None:
                    self.discover(challenge)
                scopes = set((challenge.get("scope") or "").split()) or set(self.prm.get("scopes_supported") or [])
                if self.fault == "ignore-challenge-scope":
                    scopes = set(self.prm.get("scopes_supported") or [])
                self.authorize(scopes | self.scopes)
                continue
            if status == 403 and challenge.get("error") == "insufficient_scope":
                if self.fault == "no-step-up":
                    raise Refused("403 insufficient_scope: not re-authorizing")
                self.authorize(self.scopes | set((challenge.get("scope") or "").split()))
                continue
            raise Refused("MCP request failed: %d %s" % (status, data[:200]))
        raise Refused("too many authorization rounds for one request")

    def read_answer(self, headers, data):
        if "text/event-stream" in headers.get("content-type", ""):
            for block in data.decode().split("\n\n"):
                lines = [l[5:].lstrip() for l in block.split("\n") if l.startswith("data:")]
                if lines and lines[0]:
                    m = json.loads("\n".join(lines))
                    if "id" in m and ("result" in m or "error" in m):
                        return m
            return None
        return json.loads(data) if data else None

    def request(self, method, params=None, first=False):
        rid = self.next_id
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if self.modern:
            params = dict(params or {})
            params["_meta"] = {"io.modelcontextprotocol/protocolVersion": self.version,
                               "io.modelcontextprotocol/clientCapabilities": {},
                               "io.modelcontextprotocol/clientInfo": {"name": "mcpspec-auth-test-client",
                                                                      "version": "1.0"}}
        if params is not None:
            msg["params"] = params
        return self.post(msg, first)

    def run(self, actions, proposed):
        self.proposed = proposed
        if proposed >= "2026-07-28":
            self.version, self.modern = proposed, True
            self.request("server/discover", first=True)
        else:
            answer = self.request("initialize", {"protocolVersion": proposed, "capabilities": {},
                                                 "clientInfo": {"name": "mcpspec-auth-test-client", "version": "1.0"}},
                                  first=True)
            if answer and "result" in answer:
                self.version = answer["result"].get("protocolVersion")
            self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})
        for a in actions:
            do = a.get("do")
            if do == "list_tools":
                self.request("tools/list")
            elif do == "call_tool":
                self.request("tools/call", {"name": a.get("name", "echo"), "arguments": a.get("arguments", {})})
            elif do == "ping":
                self.request("ping")
            elif do == "wait_ms":
                time.sleep(a.get("ms", 0) / 1000.0)
            else:
                log("ignoring unknown action %r" % do)


def main():
    a = parse_fault_client_args(FAULTS)
    context = json.loads(os.environ.get("MCPSPEC_CONTEXT") or "{}")
    official = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    proposed = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION") or os.environ.get("MCPSPEC_PROTOCOL") or "2025-11-25"
    global FIRST_CHALLENGE_ONLY
    FIRST_CHALLENGE_ONLY = a.fault == "first-challenge-only"
    if context.get("cimd"):
        context["client_metadata_url"] = host_client_metadata(a.fault)
    client = AuthClient(a.url, a.fault, context, official)
    try:
        client.run(context.get("actions", [{"do": "list_tools"}]), proposed)
    except Refused as e:
        log("stopped: %s" % e)
        return 1
    except (OSError, ValueError, KeyError) as e:
        log("error: %r" % e)
        return 2
    log("done")
    time.sleep(context.get("linger_ms", 0) / 1000.0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
