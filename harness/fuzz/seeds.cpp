#include "harness/fuzz/seeds.hpp"

#include "harness/protocol/era.hpp"
#include "harness/protocol/versions.hpp"
#include "harness/scenario/loader.hpp"
#include "harness/scenario/substitute.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace mcpspec::fuzz {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

void walk(const json& steps, const json& vars, std::vector<json>& out, std::set<std::string>& seen) {
  if (!steps.is_array()) return;
  for (const auto& step : steps) {
    if (!step.is_object()) continue;
    if (step.contains("steps")) walk(step["steps"], vars, out, seen);
    json msg;
    try {
      if (step.contains("send")) {
        msg = scenario::substitute(step["send"], vars);
      } else if (step.contains("request") && step["request"].is_object()) {
        json body = scenario::substitute(step["request"], vars);
        msg = {{"jsonrpc", "2.0"}, {"id", body.value("id", json(1))}, {"method", body["method"]}};
        if (body.contains("params")) msg["params"] = body["params"];
      } else if (step.contains("notify") && step["notify"].is_object()) {
        json body = scenario::substitute(step["notify"], vars);
        msg = {{"jsonrpc", "2.0"}, {"method", body["method"]}};
        if (body.contains("params")) msg["params"] = body["params"];
      } else {
        continue;
      }
    } catch (const std::exception&) {
      continue;  // needs a capture only a live run has
    }
    std::string text = msg.dump();
    if (text.size() > (1 << 20) || !seen.insert(text).second) continue;
    out.push_back(std::move(msg));
  }
}

}  // namespace

std::vector<json> scenario_seeds(const std::vector<std::string>& paths, const std::string& version) {
  std::vector<json> out;
  std::set<std::string> seen;
  auto loaded = scenario::load_scenarios(paths);
  json vars = {{"protocol", version}, {"negotiated", version}, {"mcpspec", {{"version", MCPSPEC_VERSION}}}};
  // A scenario written only for the other era (2026-07-28's stateless requests when fuzzing a
  // legacy session) sends messages of that era: wrong-era input, not seeds.
  const auto& same_era = protocol::is_modern(version) ? protocol::modern_versions() : protocol::known_versions();
  for (const auto& s : loaded.scenarios) {
    if (std::none_of(same_era.begin(), same_era.end(), [&](const std::string& v) { return s.protocol.contains(v); }))
      continue;
    walk(s.fixture_steps, vars, out, seen);
    walk(s.steps, vars, out, seen);
  }
  return out;
}

std::vector<json> corpus_seeds(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw SeedError("--corpus " + dir + ": not a folder");
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec))
    if (e.is_regular_file() && (e.path().extension() == ".json" || e.path().extension() == ".jsonl"))
      files.push_back(e.path());
  std::sort(files.begin(), files.end());  // the same seeds in the same order, run after run
  std::vector<json> out;
  for (const auto& f : files) {
    std::ifstream in(f);
    if (!in) throw SeedError(f.string() + ": cannot be read");
    if (f.extension() == ".jsonl") {
      std::string line;
      for (int n = 1; std::getline(in, line); ++n) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        json m = json::parse(line, nullptr, false);
        if (m.is_discarded()) throw SeedError(f.string() + ": line " + std::to_string(n) + ": not JSON");
        out.push_back(std::move(m));
      }
    } else {
      std::stringstream ss;
      ss << in.rdbuf();
      json m = json::parse(ss.str(), nullptr, false);
      if (m.is_discarded()) throw SeedError(f.string() + ": not JSON");
      if (m.is_array())
        for (auto& e : m) out.push_back(e);
      else
        out.push_back(std::move(m));
    }
  }
  return out;
}

}  // namespace mcpspec::fuzz
