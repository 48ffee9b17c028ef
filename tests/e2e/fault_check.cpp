// End-to-end check of the generic suite against our own test server (tests/servers/).
//   mcpspec-fault-check --correct PROFILE VERSION   the correct server: zero FAIL, WARN or ERROR
//   mcpspec-fault-check --fault NAME                one injected bug: the suite must report it, naming
//                                                   one of the requirement ids tests/servers/faults.json lists
// Runs the real mcpspec binary and reads its JSON report, exactly as a CI job would.
#include "tests/e2e/fault_verdict.hpp"

#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>
#include <string>

using nlohmann::json;

namespace {

using mcpspec::faultcheck::bin;
using mcpspec::faultcheck::read_json;

// Runs the generic suite; returns the exit code and fills `report`.
int run_suite(const std::string& server, const std::string& protocol, bool strict, json& report) {
  return mcpspec::faultcheck::run_mcpspec("--server " + mcpspec::faultcheck::shell_quote(server) + " --protocol " +
                                              protocol + " -j 16" + (strict ? " --strict" : "") + " " +
                                              std::string(MCPSPEC_SOURCE_DIR) + "/scenarios/mcp",
                                          report);
}

int check_correct(const std::string& profile, const std::string& protocol) {
  json report;
  int code = run_suite(bin("mcpspec-testserver") + " --profile " + profile, protocol, true, report);
  int bad = 0;
  for (const auto& r : report["results"]) {
    std::string v = r["verdict"];
    if (v == "fail" || v == "warn" || v == "error" || v == "xpass") {
      std::cout << "UNEXPECTED " << v << ": " << r["id"].get<std::string>() << "\n";
      ++bad;
    }
  }
  if (code != 0 || bad) {
    std::cout << "the correct server (profile " << profile << ", " << protocol << ") got " << bad
              << " non-passing result(s), exit " << code << "\n";
    return 1;
  }
  std::cout << "correct server, profile " << profile << ", " << protocol << ": no FAIL/WARN/ERROR\n";
  return 0;
}

int check_fault(const std::string& name) {
  json faults = read_json(std::string(MCPSPEC_SOURCE_DIR) + "/tests/servers/faults.json");
  const json* fault = nullptr;
  for (const auto& f : faults["faults"])
    if (f["name"] == name) fault = &f;
  if (!fault) {
    std::cout << "no fault named " << name << " in faults.json\n";
    return 2;
  }
  std::string protocol = "2025-11-25";
  if (fault->contains("protocol")) {
    std::string p = (*fault)["protocol"];
    protocol = p.rfind(">=", 0) == 0 ? "2025-11-25" : p;
  }
  bool must = (*fault)["level"] == "MUST";
  json report;
  int code = run_suite(bin("mcpspec-testserver") + " --fault " + name, protocol, !must, report);
  return mcpspec::faultcheck::judge_fault("fault", *fault, code, report);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "--correct" && argc == 4) return check_correct(argv[2], argv[3]);
    if (mode == "--fault" && argc == 3) return check_fault(argv[2]);
    std::cerr << "usage: mcpspec-fault-check --correct PROFILE VERSION | --fault NAME\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "mcpspec-fault-check: " << e.what() << "\n";
    return 2;
  }
}
