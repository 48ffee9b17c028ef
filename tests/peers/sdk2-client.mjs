#!/usr/bin/env node
// A small MCP client built on the TypeScript SDK v2, @modelcontextprotocol/client 2.4.0 (pinned in
// tests/package.json), used as a real client nobody here wrote, at 2026-07-28 and at older
// versions: `mcpspec run --client 'node tests/peers/sdk2-client.mjs {server}' --cooperative
// --protocol 2026-07-28`, or over Streamable HTTP: `--client 'node tests/peers/sdk2-client.mjs {url}'
// --transport http` (the SDK's StreamableHTTPClientTransport). It follows mcpspec's client driver protocol (docs/testing-clients.md)
// and leaves every protocol decision to the SDK, with one choice made for it: version negotiation
// "auto" (probe with server/discover, fall back to initialize for a legacy server), because the
// SDK's default is the legacy era and a run at 2026-07-28 is to test its modern one.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

import { readInvocation, runDriver, sleep } from "./driver-common.mjs";

const log = (text) => process.stderr.write(`sdk2-client: ${text}\n`);
const { command, args, context } = readInvocation(log, "sdk2-client.mjs SERVER_COMMAND [ARGS...] | URL");
const capabilities = { ...(context.capabilities || {}) };
// The SDK 2.4.0 does not implement the tasks extension (io.modelcontextprotocol/tasks): a task
// handle for tools/call fails with UNSUPPORTED_RESULT_TYPE and is never polled. A host declares
// only what it can do, so this one leaves the extension out and the tasks scenarios SKIP.
if (capabilities.extensions && capabilities.extensions["io.modelcontextprotocol/tasks"]) {
  const { ["io.modelcontextprotocol/tasks"]: _unsupported, ...others } = capabilities.extensions;
  if (Object.keys(others).length) capabilities.extensions = others;
  else delete capabilities.extensions;
}
// The run's version picks the era the host asks for: at 2026-07-28 and later version negotiation
// "auto" (the SDK's default is the legacy era); the probe waits as long as the scenario asks
// (probe_timeout_ms), else the SDK's own default.
const modern = (process.env.MCPSPEC_PROTOCOL || "") >= "2026-07-28";
const probe = context.probe_timeout_ms ? { timeoutMs: context.probe_timeout_ms } : undefined;
const client = new Client(
  { name: "mcpspec-sdk2-peer", version: "1.0.0" },
  {
    capabilities,
    ...(modern ? { versionNegotiation: { mode: "auto", ...(probe ? { probe } : {}) } } : {}),
  },
);
// Elicitation: declined, unless the scenario's host accepts (accept_elicitation): a URL request is
// then accepted without content, a form (any other mode, or none) with a value per schema property.
const filled = (p) => (p.enum ? p.enum[0] : p.type === "integer" || p.type === "number" ? 1 : p.type === "boolean" ? true : "mcpspec");
if (capabilities.elicitation)
  client.setRequestHandler("elicitation/create", async (request) => {
    const params = request.params || {};
    if (!context.accept_elicitation) return { action: "decline" };
    if (params.mode === "url") return { action: "accept" };
    const props = (params.requestedSchema && params.requestedSchema.properties) || {};
    return { action: "accept", content: Object.fromEntries(Object.entries(props).map(([k, p]) => [k, filled(p)])) };
  });
if (capabilities.sampling)
  client.setRequestHandler("sampling/createMessage", async () => ({
    role: "assistant",
    content: { type: "text", text: "canned answer from the SDK v2 peer" },
    model: "mcpspec-sdk2-peer",
  }));
if (capabilities.roots)
  client.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///tmp/mcpspec-sdk2-peer", name: "scratch" }] }));

// A URL selects Streamable HTTP; anything else is a stdio server command.
const transport = /^https?:\/\//.test(command)
  ? new StreamableHTTPClientTransport(new URL(command))
  : new StdioClientTransport({ command, args, stderr: "inherit" });
// At 2026-07-28 the host calls only tools the client's list offers, once it has listed them: a tool
// the SDK left out of listTools() (over HTTP, one with an invalid x-mcp-header, HDR-10) is not
// offered to a model. (Older versions keep calling by name, so the runs there are unchanged.)
let listed;
const listTools = client.listTools.bind(client);
client.listTools = async (...a) => {
  const result = await listTools(...a);
  listed = new Set((result.tools || []).map((t) => t.name));
  return result;
};
const callTool = async (params, options) => {
  if (modern && listed && !listed.has(params.name)) {
    log(`tools/call ${params.name} declined: not in the client's tool list`);
    return undefined;
  }
  return client.callTool(params, options);
};
await runDriver(client, transport, context, log, {
  callTool,
  exit: () => client.close(),
  extra: {
    // Independent tool calls a host runs at once: each follows its own input rounds in the SDK.
    call_tools_parallel: async (action) => {
      await Promise.all(
        (action.calls || []).map((c) =>
          callTool({ name: c.name, arguments: c.arguments || {} }).catch((e) => log(`tools/call ${c.name}: ${e.message}`)),
        ),
      );
    },
    // A subscription followed for `ms`, then ended (on stdio the SDK cancels the listen request;
    // over HTTP it closes the listen stream).
    // Re-listing tools on a change is the host's choice, made here as the test client makes it: the
    // SDK dispatches a change delivered on the listen stream to this handler.
    listen: async (action) => {
      client.setNotificationHandler("notifications/tools/list_changed", async () => {
        await client.listTools().catch((e) => log(`tools/list after a change: ${e.message}`));
      });
      const controller = new AbortController();
      await client.listen(action.notifications || { toolsListChanged: true }, { signal: controller.signal });
      await sleep(action.ms || 2000);
      controller.abort("done listening");
    },
  },
});
