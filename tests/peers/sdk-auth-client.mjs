#!/usr/bin/env node
// An MCP client that authorizes with the TypeScript SDK's own OAuth code (@modelcontextprotocol/sdk
// 1.32.2, pinned in tests/package.json), driven without a browser the way the official conformance
// suite's clients are: `node tests/peers/sdk-auth-client.mjs URL` with MCP_CONFORMANCE_CONTEXT
// (pre-registered client_id / client_secret) and MCPSPEC_CONTEXT (actions after the handshake).
// The provider's redirectToAuthorization fetches the authorization URL without following the
// redirect and keeps the code from Location; the transport's finishAuth exchanges it. Every OAuth
// decision (discovery, PKCE, resource, registration, scopes, refresh) is the SDK's: that is what
// `mcpspec run --client ... --transport http --auth` judges (docs/authorization.md, docs/peers.md).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";

const log = (text) => process.stderr.write(`sdk-auth-client: ${text}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const url = process.argv[process.argv.length - 1];
if (!url || !/^https?:\/\//.test(url)) {
  log("usage: sdk-auth-client.mjs URL");
  process.exit(2);
}
const parse = (name) => {
  try {
    return JSON.parse(process.env[name] || "{}");
  } catch (e) {
    log(`${name} is not valid JSON: ${e.message}`);
    process.exit(2);
  }
};
const context = parse("MCPSPEC_CONTEXT");
const official = parse("MCP_CONFORMANCE_CONTEXT");
const REDIRECT = "http://localhost:3000/callback";

class HeadlessProvider {
  constructor() {
    this.info = official.client_id ? { client_id: official.client_id, client_secret: official.client_secret } : undefined;
    this.code = undefined;
  }
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return {
      client_name: "mcpspec sdk-auth-client",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(v) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  // No browser: read the code from the authorization server's 302.
  async redirectToAuthorization(authorizationUrl) {
    const res = await fetch(authorizationUrl, { redirect: "manual", signal: AbortSignal.timeout(10000) });
    const location = res.headers.get("location");
    if (!location) throw new Error(`authorization answered ${res.status} without Location`);
    const back = new URL(location);
    this.code = back.searchParams.get("code") || undefined;
    if (!this.code) throw new Error(`authorization error: ${back.searchParams.get("error")}`);
  }
}

const provider = new HeadlessProvider();
const client = new Client({ name: "mcpspec-sdk-auth-peer", version: "1.0.0" }, { capabilities: {} });

// Runs `fn`; on UnauthorizedError (the SDK sent the user to authorize) completes the code exchange
// and tries again, at most three times.
async function authorized(fn, reconnect) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (!(e instanceof UnauthorizedError) || attempt >= 3 || !provider.code) throw e;
      const code = provider.code;
      provider.code = undefined;
      await reconnect.transport.finishAuth(code);
      if (reconnect.fresh) reconnect.transport = reconnect.fresh();
    }
  }
}

const holder = {};
const newTransport = () => new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
holder.transport = newTransport();
holder.fresh = newTransport;
try {
  await authorized(() => client.connect(holder.transport), holder);
  holder.fresh = undefined;
  for (const a of context.actions || [{ do: "list_tools" }]) {
    if (a.do === "list_tools") await authorized(() => client.listTools(), holder);
    else if (a.do === "call_tool")
      await authorized(() => client.callTool({ name: a.name || "echo", arguments: a.arguments || {} }), holder);
    else if (a.do === "ping") await authorized(() => client.ping(), holder);
    else if (a.do === "wait_ms") await sleep(a.ms || 0);
    else log(`ignoring unknown action ${JSON.stringify(a.do)}`);
  }
  log("done");
  await sleep(context.linger_ms || 0);
  await client.close();
  process.exit(0);
} catch (e) {
  log(`stopped: ${e.message}`);
  process.exit(1);
}
