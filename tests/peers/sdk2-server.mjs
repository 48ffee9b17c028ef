#!/usr/bin/env node
// A small MCP server built on the TypeScript SDK v2, @modelcontextprotocol/server 2.4.0 (pinned in
// tests/package.json), used as a real server nobody here wrote, at 2026-07-28 and at older
// versions: `mcpspec run --server 'node tests/peers/sdk2-server.mjs' --protocol 2026-07-28`. It
// serves stdio through the SDK's serveStdio entry (dual-era: server/discover and stateless
// requests, initialize for the legacy versions) and leaves every protocol decision to the SDK.
// What it offers, so the generic suite has something to call: tools with and without an input
// round (elicitation through input_required), a resource and a resource template, a prompt whose
// argument completes, and a tool that changes the tool list (for subscriptions/listen).
// `--http` serves the same server over Streamable HTTP instead, through the SDK's createMcpHandler
// (tests/peers/sdk2-http-host.mjs), on 127.0.0.1 and the port in $PORT.
import { McpServer, ResourceTemplate, acceptedContent, completable, fromJsonSchema, inputRequired } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { serveHttp } from "./sdk2-http-host.mjs";

const text = (t) => ({ content: [{ type: "text", text: t }] });
const object = (properties, required = []) =>
  fromJsonSchema({ type: "object", properties, required, additionalProperties: false });
const colours = ["red", "green", "blue"];
let extraTools = 0;  // tools added by touch_catalog, shared by every request of the process
// Over HTTP every request gets a fresh instance, so a list change is published on the handler's
// event bus (which feeds the open subscriptions/listen streams) rather than by the instance.
let announceToolsChanged = (server) => server.sendToolListChanged();

function build() {
  const server = new McpServer({ name: "mcpspec-sdk2-server", version: "1.0.0" }, { capabilities: { logging: {} } });
  server.registerTool("echo", { description: "Returns the given text.", inputSchema: object({ text: { type: "string" } }, ["text"]),
                                annotations: { readOnlyHint: true } },
                      async ({ text: t }) => text(t));
  server.registerTool("add", { description: "Adds two numbers.", inputSchema: object({ a: { type: "number" }, b: { type: "number" } }, ["a", "b"]),
                               annotations: { readOnlyHint: true } },
                      async ({ a, b }) => text(String(a + b)));
  // An input round: the tool asks the user to confirm (form elicitation) and answers the retry.
  server.registerTool("confirm", { description: "Asks for a confirmation, then reports it.",
                                   inputSchema: object({ target: { type: "string" } }, ["target"]),
                                   annotations: { readOnlyHint: true } },
                      async ({ target }, ctx) => {
                        // The state names the call it belongs to: a retry carrying any other
                        // state (or none) is asked again rather than completed (MRTR-07).
                        const state = `confirm:${target}`;
                        const answer = acceptedContent(ctx.mcpReq.inputResponses, "confirm");
                        if (!ctx.mcpReq.inputResponses || ctx.mcpReq.requestState() !== state)
                          return inputRequired({
                            requestState: state,
                            inputRequests: {
                              confirm: inputRequired.elicit({
                                message: `Confirm ${target}?`,
                                requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
                              }),
                            },
                          });
                        return text(answer?.ok === true ? `confirmed ${target}` : `not confirmed ${target}`);
                      });
  server.registerTool("touch_catalog", { description: "Adds a tool, so the tool list changes.", inputSchema: object({}),
                                         annotations: { readOnlyHint: false, destructiveHint: false } },
                      async () => {
                        extraTools += 1;
                        announceToolsChanged(server);
                        return text(`${extraTools} extra tool(s)`);
                      });
  for (let i = 1; i <= extraTools; ++i)
    server.registerTool(`extra_${i}`, { description: "Added by touch_catalog.", inputSchema: object({}), annotations: { readOnlyHint: true } },
                        async () => text(`extra ${i}`));
  server.registerResource("readme", "mcpspec://sdk2/readme", { mimeType: "text/plain", description: "A fixed text." },
                          async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: "sdk2 peer readme" }] }));
  server.registerResource("note", new ResourceTemplate("mcpspec://sdk2/notes/{name}", { list: undefined }),
                          { mimeType: "text/plain", description: "A note by name." },
                          async (uri, { name }) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: `note ${name}` }] }));
  server.registerPrompt("paint", { description: "Asks for a painting in a colour.",
                                   argsSchema: object({ colour: completable({ type: "string" }, (v) => colours.filter((c) => c.startsWith(v || ""))) }, ["colour"]) },
                        ({ colour }) => ({ messages: [{ role: "user", content: { type: "text", text: `Paint it ${colour}.` } }] }));
  return server;
}

const onerror = (e) => process.stderr.write(`sdk2-server: ${e.message}\n`);
if (process.argv.includes("--http")) {
  const handler = serveHttp(() => build(), onerror);
  announceToolsChanged = () => handler.notify.toolsChanged();
} else {
  serveStdio(() => build(), { onerror });
}
