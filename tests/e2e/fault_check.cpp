// End-to-end check of the generic suite against our own test server (tests/servers/).
//   mcpspec-fault-check --correct PROFILE VERSION   the correct server: zero FAIL, WARN or ERROR
//   mcpspec-fault-check --fault NAME                one injected bug: the suite must report it, naming
//                                                   one of the requirement ids tests/servers/faults.json lists
// Runs the real mcpspec binary and reads its JSON report, exactly as a CI job would.
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

int run(const std::string& cmd) {
  int st = std::system(cmd.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("no report at " + path);
  return json::parse(in);
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs the generic suite; returns the exit code and fills `report`.
int run_suite(const std::string& server, const std::string& protocol, bool strict, json& report) {
  char tmpl[] = "/tmp/mcpspec-e2e-XXXXXX";
  int fd = ::mkstemp(tmpl);
  if (fd >= 0) ::close(fd);
  std::string out = tmpl;
  std::string cmd = bin("mcpspec") + " run --server " + shell_quote(server) + " --protocol " + protocol +
                    " -j 8 --report json:" + out + " --report md:" + out + ".md" + (strict ? " --strict" : "") +
                    " " + std::string(MCPSPEC_SOURCE_DIR) + "/scenarios/mcp > " + out + ".console 2>&1";
  int code = run(cmd);
  report = read_json(out);
  std::ifstream console(out + ".console");
  std::string line;
  int shown = 0;
  while (std::getline(console, line) && shown++ < 200) std::cout << line << "\n";
  std::remove(out.c_str());
  std::remove((out + ".md").c_str());
  std::remove((out + ".console").c_str());
  return code;
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
  std::set<std::string> wanted = (*fault)["requirements"].get<std::set<std::string>>();
  bool must = (*fault)["level"] == "MUST";
  json report;
  int code = run_suite(bin("mcpspec-testserver") + " --fault " + name, protocol, !must, report);
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
  std::cout << "NOT CAUGHT: fault " << name << " (" << (must ? "MUST" : "SHOULD")
            << "): no " << (must ? "FAIL" : "FAIL/WARN") << " names any of";
  for (const auto& w : wanted) std::cout << " " << w;
  std::cout << " (exit " << code << ")\n";
  return 1;
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
