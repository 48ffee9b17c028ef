// mcpspec-testclient: an MCP client over stdio that we wrote ourselves to test mcpspec's client
// role. It follows the client driver protocol (docs/testing-clients.md): MCPSPEC_CONTEXT says
// which capabilities to declare and what to do after the handshake. --fault NAME injects one bug.
// At 2026-07-28 and later (MCPSPEC_PROTOCOL, or the context's protocolVersion) it is a dual-era
// client (modern_driver.hpp): it probes with server/discover and falls back to initialize only
// when the server turns out to be legacy.
//
//   mcpspec-testclient [--fault NAME] [--no-extensions] [--list-faults] -- SERVER_COMMAND [ARGS...]
//   mcpspec-testclient [--fault NAME] --server-json '["cmd","arg"]'
// --no-extensions plays a client that implements no extension: it leaves `extensions` out of the
// capabilities the context asks it to declare (so scenarios gated on an extension SKIP).
//
// Exit status: 0 after an orderly session, 1 when the server failed the handshake, 2 for usage errors.
#include "driver.hpp"
#include "faults.hpp"
#include "modern_driver.hpp"
#include "server_process.hpp"

#include <nlohmann/json.hpp>

#include <signal.h>

#include <cstdlib>
#include <iostream>

using nlohmann::json;

int main(int argc, char** argv) {
  ::signal(SIGPIPE, SIG_IGN);
  testclient::Fault fault = testclient::Fault::none;
  std::vector<std::string> server;
  bool no_extensions = false;
  try {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (a == "--list-faults") {
        for (const auto& n : testclient::fault_names()) std::cout << n << "\n";
        return 0;
      } else if (a == "--fault" && i + 1 < argc) {
        fault = testclient::parse_fault(argv[++i]);
      } else if (a == "--no-extensions") {
        no_extensions = true;
      } else if (a == "--server-json" && i + 1 < argc) {
        json j = json::parse(argv[++i]);
        if (!j.is_array() || j.empty()) throw std::invalid_argument("--server-json needs a non-empty JSON array");
        for (const auto& s : j) server.push_back(s.get<std::string>());
      } else if (a == "--") {
        for (++i; i < argc; ++i) server.push_back(argv[i]);
      } else {
        throw std::invalid_argument("unknown argument \"" + a + "\"");
      }
    }
    if (server.empty()) throw std::invalid_argument("no server command (give -- CMD ARGS... or --server-json)");
  } catch (const std::exception& e) {
    std::cerr << "mcpspec-testclient: " << e.what() << "\n"
              << "usage: mcpspec-testclient [--fault NAME] [--no-extensions] [--list-faults] -- SERVER_COMMAND [ARGS...]\n";
    return 2;
  }
  json context = json::object();
  if (const char* c = std::getenv("MCPSPEC_CONTEXT"); c && *c) {
    try {
      context = json::parse(c);
    } catch (const json::exception& e) {
      std::cerr << "mcpspec-testclient: MCPSPEC_CONTEXT is not valid JSON: " << e.what() << "\n";
      return 2;
    }
    if (!context.is_object()) {
      std::cerr << "mcpspec-testclient: MCPSPEC_CONTEXT must be a JSON object\n";
      return 2;
    }
  }
  if (no_extensions && context.contains("capabilities") && context["capabilities"].is_object())
    context["capabilities"].erase("extensions");
  if (const char* s = std::getenv("MCPSPEC_SCENARIO")) std::cerr << "mcpspec-testclient: scenario " << s << "\n";
  try {
    testclient::ServerProcess process(server);
    // The modern era when the scenario's context or the run's version asks for one (2026-07-28+).
    std::string version = context.value("protocolVersion", "");
    if (version.empty())
      if (const char* p = std::getenv("MCPSPEC_PROTOCOL")) version = p;
    if (version.size() == 10 && version >= "2026-07-28") {
      testclient::ModernDriver modern(process, context, fault, version);
      return modern.run();
    }
    testclient::Driver driver(process, context, fault);
    return driver.run();
  } catch (const std::exception& e) {
    std::cerr << "mcpspec-testclient: " << e.what() << "\n";
    return 1;
  }
}
