// A plain node:http host for the TypeScript SDK v2's web-standard HTTP entry (createMcpHandler of
// @modelcontextprotocol/server 2.4.0). The SDK's own Node adapter lives in @modelcontextprotocol/node,
// which tests/package.json does not pin, so this file does the two conversions it would do: a Node
// request into a fetch Request, and the handler's Response (JSON or an SSE stream) back onto the
// Node response. Every protocol decision (era classification, legacy stateless fallback, headers,
// subscriptions/listen streams) stays with the SDK; the host only adds the SDK's localhost
// Host/Origin validation, as the SDK's documentation asks of a bare mount.
import http from "node:http";
import { Readable } from "node:stream";
import { createMcpHandler, hostHeaderValidationResponse, localhostAllowedHostnames, localhostAllowedOrigins,
         originValidationResponse } from "@modelcontextprotocol/server";

function toRequest(req, signal) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.url}`, {
    method: req.method, headers, signal,
    body: hasBody ? Readable.toWeb(req) : undefined, duplex: hasBody ? "half" : undefined,
  });
}

async function sendResponse(response, res) {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.flushHeaders();  // an SSE stream's headers go out before its first event
  if (response.body)
    for await (const chunk of response.body) res.write(chunk);
  res.end();
}

// Serves the factory's server on 127.0.0.1:$PORT (any path) and returns the SDK handler, whose
// `notify` publishes list changes to open subscription streams.
export function serveHttp(factory, onerror) {
  const port = Number(process.env.PORT);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) {
    process.stderr.write(`sdk2-http-host: PORT must name a TCP port, got '${process.env.PORT ?? ""}'\n`);
    process.exit(2);
  }
  const handler = createMcpHandler(factory, { onerror });
  const server = http.createServer(async (req, res) => {
    // A client that goes away (a closed listen stream) aborts the exchange inside the SDK.
    const aborter = new AbortController();
    res.on("close", () => aborter.abort());
    try {
      const request = toRequest(req, aborter.signal);
      const rejected = hostHeaderValidationResponse(request, localhostAllowedHostnames()) ??
                       originValidationResponse(request, localhostAllowedOrigins());
      await sendResponse(rejected ?? await handler.fetch(request), res);
    } catch (e) {
      if (aborter.signal.aborted) return;  // the client left mid-stream: nothing to answer
      onerror(e);
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(e?.message ?? e));
    }
  });
  server.listen(port, "127.0.0.1");
  const stop = () => { handler.close().finally(() => process.exit(0)); server.close(); };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  return handler;
}
