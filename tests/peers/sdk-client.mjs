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

import { readInvocation, runDriver } from "./driver-common.mjs";

const log = (text) => process.stderr.write(`sdk-client: ${text}\n`);
const { command, args, context } = readInvocation(log, "sdk-client.mjs SERVER_COMMAND [ARGS...] | sdk-client.mjs URL");
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
await runDriver(client, transport, context, log, {
  callTool: (params, options) => client.callTool(params, undefined, options),
  exit: async () => {
    // Over Streamable HTTP the SDK's way to end a session is an explicit DELETE.
    if (typeof transport.terminateSession === "function")
      await transport.terminateSession().catch((e) => log(`terminateSession: ${e.message}`));
    await client.close();
  },
});
