// What the SDK peer drivers (sdk-client.mjs on SDK v1, sdk2-client.mjs on SDK v2) share: the
// command line, MCPSPEC_CONTEXT, connecting, and running the actions of mcpspec's client driver
// protocol (docs/testing-clients.md). The SDK-specific calls come in as `calls`.

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The server command (or URL) and its arguments, and the parsed MCPSPEC_CONTEXT; exits 2 on misuse.
export function readInvocation(log, usage) {
  const [command, ...args] = process.argv.slice(2);
  if (!command) {
    log(`usage: ${usage}`);
    process.exit(2);
  }
  let context = {};
  try {
    context = JSON.parse(process.env.MCPSPEC_CONTEXT || "{}");
  } catch (e) {
    log(`MCPSPEC_CONTEXT is not valid JSON: ${e.message}`);
    process.exit(2);
  }
  return { command, args, context };
}

// Connects, runs the context's actions, serves the server until it goes away (or linger_ms), and
// exits the process. `calls.callTool(params, options)` makes a tools/call; `calls.exit()` ends the
// session the SDK's way; `calls.extra[name](action)` runs an SDK-specific action.
export async function runDriver(client, transport, context, log, calls) {
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
        if (action.cancel_after_ms >= 0) setTimeout(() => controller.abort("given up by the SDK peer"), action.cancel_after_ms);
        const options = { signal: controller.signal, timeout: action.timeout_ms || 10000 };
        if (action.progress) options.onprogress = () => {};  // the SDK then sends a progress token
        const call = report(
          calls.callTool({ name: action.name || "echo", arguments: action.arguments || {} }, options),
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
        await calls.exit();
        process.exit(0);
      default:
        if (calls.extra && calls.extra[action.do]) await report(calls.extra[action.do](action), action.do);
        else log(`unknown action ${JSON.stringify(action)} (ignored)`);
    }
  }
  // Serve the server until it goes away, then end like a well-behaved host.
  await Promise.race([closedPromise, sleep(context.linger_ms || 60000)]);
  await client.close().catch(() => {});
  process.exit(0);
}
