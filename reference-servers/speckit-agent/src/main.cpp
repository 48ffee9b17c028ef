// speckit-agent: the workflow agent spec-tui drives, an MCP server over stdio exposing
// speckit.specify / clarify / plan / tasks / implement (see README.md).
#include "agent_server.hpp"

#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  CLI::App app{"speckit-agent: deterministic spec-driven workflow tools (specify, clarify, plan, tasks, implement) "
               "served over MCP on stdio"};
  app.set_version_flag("--version", std::string("speckit-agent ") + speckit::kServerVersion);
  long step_ms = 100;
  long timeout_ms = 60000;
  // Also settable in the environment, for hosts that start the agent from a fixed command line.
  app.add_option("--step-ms", step_ms, "Pause between a workflow's steps, in ms (progress and cancel points)")
      ->envname("SPECKIT_AGENT_STEP_MS")
      ->check(CLI::Range(0L, 60000L));
  app.add_option("--tool-timeout-ms", timeout_ms, "A tool call still running after this many ms ends with -32001")
      ->envname("SPECKIT_AGENT_TOOL_TIMEOUT_MS")
      ->check(CLI::Range(1L, 3600000L));
  CLI11_PARSE(app, argc, argv);

  speckit::AgentOptions options;
  options.step_pause = std::chrono::milliseconds(step_ms);
  options.tool_timeout = std::chrono::milliseconds(timeout_ms);
  speckit::AgentServer server(options);
  return server.run();
}
