#!/usr/bin/env node
// A small MCP client built on the TypeScript SDK v2, @modelcontextprotocol/client 2.4.0 (pinned in
// tests/package.json), used as a real client nobody here wrote, at 2026-07-28 and at older
// versions: `mcpspec run --client 'node tests/peers/sdk2-client.mjs {server}' --cooperative
// --protocol 2026-07-28`. It follows mcpspec's client driver protocol (docs/testing-clients.md)
// and leaves every protocol decision to the SDK, with one choice made for it: version negotiation
// "auto" (probe with server/discover, fall back to initialize for a legacy server), because the
// SDK's default is the legacy era and a run at 2026-07-28 is to test its modern one.
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const log = (text) => process.stderr.write(`sdk2-client: ${text}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const [command, ...args] = process.argv.slice(2);
if (!command) {
  log("usage: sdk2-client.mjs SERVER_COMMAND [ARGS...]");
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
if (capabilities.elicitation) client.setRequestHandler("elicitation/create", async () => ({ action: "decline" }));
if (capabilities.sampling)
  client.setRequestHandler("sampling/createMessage", async () => ({
    role: "assistant",
    content: { type: "text", text: "canned answer from the SDK v2 peer" },
    model: "mcpspec-sdk2-peer",
  }));
if (capabilities.roots)
  client.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///tmp/mcpspec-sdk2-peer", name: "scratch" }] }));

const transport = new StdioClientTransport({ command, args, stderr: "inherit" });
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

const report = (p, what) =>
  p.then(
    () => log(`${what}: ok`),
    (e) => log(`${what}: ${e.message}`),
  );
const pending = [];
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
      if (action.cancel_after_ms >= 0) setTimeout(() => controller.abort("given up by the SDK v2 peer"), action.cancel_after_ms);
      const options = { signal: controller.signal, timeout: action.timeout_ms || 10000 };
      if (action.progress) options.onprogress = () => {};  // the SDK then sends a progress token
      const call = report(
        client.callTool({ name: action.name || "echo", arguments: action.arguments || {} }, options),
        `tools/call ${action.name}`,
      );
      if (action.await === false) pending.push(call);
      else await call;
      break;
    }
    case "listen": {
      const controller = new AbortController();
      const sub = client.listen(action.notifications || { toolsListChanged: true }, { signal: controller.signal });
      await report(sub, "subscriptions/listen");
      await sleep(action.ms || 2000);
      controller.abort("done listening");
      break;
    }
    case "await_all":
      await Promise.all(pending.splice(0));
      break;
    case "wait_ms":
      await sleep(action.ms || 100);
      break;
    case "exit":
      await client.close();
      process.exit(0);
    default:
      log(`unknown action ${JSON.stringify(action)} (ignored)`);
  }
}
await Promise.race([closedPromise, sleep(context.linger_ms || 60000)]);
await client.close().catch(() => {});
process.exit(0);
