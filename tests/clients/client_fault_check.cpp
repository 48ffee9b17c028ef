// End-to-end check of the generic client suite against our own test client (tests/clients/).
//   mcpspec-client-fault-check --correct       the correct client: zero FAIL, WARN or ERROR
//   mcpspec-client-fault-check --fault NAME    one injected bug: the suite must report it, naming one
//                                              of the requirement ids tests/clients/faults.json lists
// Runs the real mcpspec binary (mcpspec run --client ... --cooperative) and reads its JSON report.
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

std::string bin(const std::string& name) { return std::string(MCPSPEC_BINARY_DIR) + "/" + name; }

json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("no report at " + path);
  return json::parse(in);
}

// Runs the client suite against `client` (a command with {server}); returns mcpspec's exit code.
int run_suite(const std::string& client, bool strict, json& report) {
  char tmpl[] = "/tmp/mcpspec-client-e2e-XXXXXX";
  int fd = ::mkstemp(tmpl);
  if (fd >= 0) ::close(fd);
  std::string out = tmpl;
  std::string cmd = bin("mcpspec") + " run --client '" + client + "' --cooperative -j 2 --timeout-ms 3000 --deadline 240" +
                    " --report json:" + out + (strict ? " --strict" : "") + " " + std::string(MCPSPEC_SOURCE_DIR) +
                    "/scenarios/mcp/client > " + out + ".console 2>&1";
  int st = std::system(cmd.c_str());
  int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
  std::ifstream console(out + ".console");
  std::string line;
  for (int shown = 0; std::getline(console, line) && shown < 200; ++shown) std::cout << line << "\n";
  report = read_json(out);
  std::remove(out.c_str());
  std::remove((out + ".console").c_str());
  return code;
}

int check_correct() {
  json report;
  int code = run_suite(bin("mcpspec-testclient") + " -- {server}", true, report);
  int bad = 0, pass = 0;
  for (const auto& r : report["results"]) {
    std::string v = r["verdict"];
    if (v == "pass") ++pass;
    if (v == "fail" || v == "warn" || v == "error" || v == "xpass" || v == "skip") {
      std::cout << "UNEXPECTED " << v << ": " << r["id"].get<std::string>() << " " << r.value("reason", "") << "\n";
      ++bad;
    }
  }
  if (code != 0 || bad || pass == 0) {
    std::cout << "the correct client got " << bad << " non-passing result(s), " << pass << " pass, exit " << code << "\n";
    return 1;
  }
  std::cout << "correct client: " << pass << " PASS, no FAIL/WARN/ERROR/SKIP\n";
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
  std::set<std::string> wanted = (*fault)["requirements"].get<std::set<std::string>>();
  bool must = (*fault)["level"] == "MUST";
  json report;
  int code = run_suite(bin("mcpspec-testclient") + " --fault " + name + " -- {server}", !must, report);
  for (const auto& r : report["results"]) {
    std::string v = r["verdict"];
    if (!(v == "fail" || (!must && v == "warn"))) continue;
    for (const auto& f : r["findings"])
      for (const auto& id : f["requirements"])
        if (wanted.count(id.get<std::string>())) {
          if (code != 1) {
            std::cout << "the fault was found but mcpspec exited " << code << " instead of 1\n";
            return 1;
          }
          std::cout << "caught " << name << ": " << v << " " << r["id"].get<std::string>() << " names "
                    << id.get<std::string>() << ": " << f["message"].get<std::string>() << "\n";
          return 0;
        }
  }
  std::cout << "NOT CAUGHT: client fault " << name << ": no " << (must ? "FAIL" : "FAIL/WARN") << " names any of";
  for (const auto& w : wanted) std::cout << " " << w;
  std::cout << " (exit " << code << ")\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "--correct" && argc == 2) return check_correct();
    if (mode == "--fault" && argc == 3) return check_fault(argv[2]);
    std::cerr << "usage: mcpspec-client-fault-check --correct | --fault NAME\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "mcpspec-client-fault-check: " << e.what() << "\n";
    return 2;
  }
}
