#pragma once
// How the fault checks (tests/e2e for servers, tests/clients for clients) judge a suite run
// against a faulty peer: caught when a FAIL (or, for a SHOULD fault, a WARN) names one of the
// fault's requirements and mcpspec exited 1.
#include <nlohmann/json.hpp>

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <stdexcept>
#include <string>

namespace mcpspec::faultcheck {

inline std::string bin(const std::string& name) { return std::string(MCPSPEC_BINARY_DIR) + "/" + name; }

inline nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("no report at " + path);
  return nlohmann::json::parse(in);
}

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs `mcpspec run <args>` with a JSON and a Markdown report into a temporary file, shows the
// first 200 console lines, fills `report` and returns mcpspec's exit code.
inline int run_mcpspec(const std::string& args, nlohmann::json& report) {
  char tmpl[] = "/tmp/mcpspec-e2e-XXXXXX";
  int fd = ::mkstemp(tmpl);
  if (fd >= 0) ::close(fd);
  std::string out = tmpl;
  std::string cmd = bin("mcpspec") + " run " + args + " --report json:" + out + " --report md:" + out + ".md > " + out +
                    ".console 2>&1";
  int st = std::system(cmd.c_str());
  int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
  std::ifstream console(out + ".console");
  std::string line;
  for (int shown = 0; shown < 200 && std::getline(console, line); ++shown) std::cout << line << "\n";
  report = read_json(out);
  std::remove(out.c_str());
  std::remove((out + ".md").c_str());
  std::remove((out + ".console").c_str());
  return code;
}

// `fault` is the faults.json entry; `code` and `report` come from the run. Returns the check's
// exit code (0 caught, 1 not caught) and says why on stdout.
inline int judge_fault(const std::string& label, const nlohmann::json& fault, int code, const nlohmann::json& report) {
  const std::string name = fault["name"];
  std::set<std::string> wanted = fault["requirements"].get<std::set<std::string>>();
  bool must = fault["level"] == "MUST";
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
  std::cout << "NOT CAUGHT: " << label << " " << name << " (" << (must ? "MUST" : "SHOULD") << "): no "
            << (must ? "FAIL" : "FAIL/WARN") << " names any of";
  for (const auto& w : wanted) std::cout << " " << w;
  std::cout << " (exit " << code << ")\n";
  return 1;
}

}  // namespace mcpspec::faultcheck
