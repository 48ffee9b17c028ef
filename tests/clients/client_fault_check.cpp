// End-to-end check of the generic client suite against our own test client (tests/clients/).
//   mcpspec-client-fault-check --correct [VERSION]  the correct client at VERSION (default: the default
//                                              version): zero FAIL, WARN or ERROR, SKIP only for
//                                              scenarios written for other versions
//   mcpspec-client-fault-check --fault NAME    one injected bug: the suite must report it, naming one
//                                              of the requirement ids tests/clients/faults.json lists
// Runs the real mcpspec binary (mcpspec run --client ... --cooperative) and reads its JSON report.
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
#include <vector>

using nlohmann::json;

namespace {

using mcpspec::faultcheck::bin;
using mcpspec::faultcheck::read_json;

// Runs the client suite (or its `folders`) against `client` (a command with {server}) at
// `protocol` ("" for the default version); returns mcpspec's exit code.
int run_suite(const std::string& client, bool strict, const std::string& protocol,
              const std::vector<std::string>& folders, json& report) {
  std::string paths;
  const std::string suite = std::string(MCPSPEC_SOURCE_DIR) + "/scenarios/mcp/client";
  for (const auto& f : folders) paths += " " + suite + "/" + f;
  if (folders.empty()) paths = " " + suite;
  return mcpspec::faultcheck::run_mcpspec("--client " + mcpspec::faultcheck::shell_quote(client) +
                                              " --cooperative -j 8 --timeout-ms 3000 --deadline 240" +
                                              (strict ? " --strict" : "") +
                                              (protocol.empty() ? "" : " --protocol " + protocol) + paths,
                                          report);
}

// A SKIP the correct client may get: the scenario is written for other protocol versions.
bool skipped_for_version(const json& r) {
  return r["verdict"] == "skip" && r.value("reason", "").find("protocol") != std::string::npos;
}

int check_correct(const std::string& protocol) {
  json report;
  int code = run_suite(bin("mcpspec-testclient") + " -- {server}", true, protocol, {}, report);
  int bad = 0, pass = 0;
  for (const auto& r : report["results"]) {
    std::string v = r["verdict"];
    if (v == "pass") ++pass;
    if (skipped_for_version(r)) continue;  // written for other versions (legacy or 2026-07-28)
    if (v == "fail" || v == "warn" || v == "error" || v == "xpass" || v == "skip") {
      std::cout << "UNEXPECTED " << v << ": " << r["id"].get<std::string>() << " " << r.value("reason", "") << "\n";
      ++bad;
    }
  }
  if (code != 0 || bad || pass == 0) {
    std::cout << "the correct client got " << bad << " non-passing result(s), " << pass << " pass, exit " << code << "\n";
    return 1;
  }
  std::cout << "correct client: " << pass << " PASS, no FAIL/WARN/ERROR, no SKIP but for other versions\x27 scenarios\n";
  return 0;
}

int check_fault(const std::string& name) {
  json faults = read_json(std::string(MCPSPEC_SOURCE_DIR) + "/tests/clients/faults.json");
  const json* fault = nullptr;
  for (const auto& f : faults["faults"])
    if (f["name"] == name) fault = &f;
  if (!fault) {
    std::cout << "no fault named " << name << " in tests/clients/faults.json\n";
    return 2;
  }
  bool must = (*fault)["level"] == "MUST";
  json report;
  int code = run_suite(bin("mcpspec-testclient") + " --fault " + name + " -- {server}", !must,
                       fault->value("protocol", ""), fault->value("scenarios", std::vector<std::string>{}), report);
  return mcpspec::faultcheck::judge_fault("client fault", *fault, code, report);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "--correct" && argc <= 3) return check_correct(argc == 3 ? argv[2] : "");
    if (mode == "--fault" && argc == 3) return check_fault(argv[2]);
    std::cerr << "usage: mcpspec-client-fault-check --correct [VERSION] | --fault NAME\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "mcpspec-client-fault-check: " << e.what() << "\n";
    return 2;
  }
}
