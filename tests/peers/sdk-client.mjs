#!/usr/bin/env node
// A small MCP client built on @modelcontextprotocol/sdk's Client (pinned in tests/package.json),
// used as a real client nobody here wrote: `mcpspec run --client 'node tests/peers/sdk-client.mjs
// {server}' --cooperative`, or over a network transport: `--client 'node tests/peers/sdk-client.mjs
// {url}' --transport http|sse|ws` (the SDK's StreamableHTTPClientTransport, SSEClientTransport for a
// URL ending in /sse, WebSocketClientTransport for ws://). It follows mcpspec's client driver protocol (docs/testing-clients.md):
// MCPSPEC_CONTEXT says which capabilities to declare and what to do after the handshake; every
// protocol decision is left to the SDK (defaults everywhere), which is what is being tested.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { WebSocketClientTransport } from "@modelcontextprotocol/sdk/client/websocket.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const log = (text) => process.stderr.write(`sdk-client: ${text}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const [command, ...args] = process.argv.slice(2);
if (!command) {
  log("usage: sdk-client.mjs SERVER_COMMAND [ARGS...] | sdk-client.mjs URL");
  process.exit(2);
}
let context = {};
try {
  context = JSON.parse(process.env.MCPSPEC_CONTEXT || "{}");
} catch (e) {
  log(`MCPSPEC_CONTEXT is not valid JSON: ${e.message}`);
  process.exit(2);
}
const capabilities = context.capabilities || {};

const client = new Client({ name: "mcpspec-sdk-peer", version: "1.0.0" }, { capabilities });
// Handlers only for what was declared: the SDK answers anything else with its own error.
if (capabilities.sampling)
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: "assistant",
    content: { type: "text", text: "canned answer from the SDK peer" },
    model: "mcpspec-sdk-peer",
  }));
if (capabilities.roots)
  client.setRequestHandler(ListRootsRequestSchema, async () => ({
    roots: [{ uri: "file:///tmp/mcpspec-sdk-peer", name: "scratch" }],
  }));
if (capabilities.elicitation) client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "decline" }));

// A URL selects a network transport; anything else is a stdio server command.
const networkTransport = (text) => {
  const url = new URL(text);
  if (url.protocol === "ws:" || url.protocol === "wss:") return new WebSocketClientTransport(url);
  if (url.pathname.endsWith("/sse")) return new SSEClientTransport(url);
  return new StreamableHTTPClientTransport(url);
};
const transport = /^(https?|wss?):\/\//.test(command)
  ? networkTransport(command)
  : new StdioClientTransport({ command, args, stderr: "inherit" });
let closed = false;
const closedPromise = new Promise((resolve) => {
  client.onclose = () => {
    closed = true;
    resolve();
  };
});

try {
  await client.connect(transport);
} catch (e) {
  log(`connect failed: ${e.message}`);
  await client.close().catch(() => {});
  process.exit(1);
}

const pending = [];
const report = (p, what) =>
  p.then(
    () => log(`${what}: ok`),
    (e) => log(`${what}: ${e.message}`),
  );

for (const action of context.actions || []) {
  if (closed) break;
  switch (action.do) {
    case "ping":
      await report(client.ping(), "ping");
      break;
    case "list_tools":
      await report(client.listTools(), "tools/list");
      break;
    case "call_tool": {
      const controller = new AbortController();
      if (action.cancel_after_ms >= 0) setTimeout(() => controller.abort("given up by the SDK peer"), action.cancel_after_ms);
      const options = { signal: controller.signal, timeout: action.timeout_ms || 10000 };
      if (action.progress) options.onprogress = () => {};
      const call = report(
        client.callTool({ name: action.name || "echo", arguments: action.arguments || {} }, undefined, options),
        `tools/call ${action.name}`,
      );
      if (action.await === false) pending.push(call);
      else await call;
      break;
    }
    case "await_all":
      await Promise.all(pending.splice(0));
      break;
    case "wait_ms":
      await sleep(action.ms || 100);
      break;
    case "exit":
      // Over Streamable HTTP the SDK's way to end a session is an explicit DELETE.
      if (typeof transport.terminateSession === "function") await transport.terminateSession().catch((e) => log(`terminateSession: ${e.message}`));
      await client.close();
      process.exit(0);
    default:
      log(`unknown action ${JSON.stringify(action)} (ignored)`);
  }
}

// Serve the server until it goes away, then end like a well-behaved host.
await Promise.race([closedPromise, sleep(context.linger_ms || 60000)]);
await client.close().catch(() => {});
process.exit(0);
