#include "harness/scenario/loader.hpp"
#include "harness/util/json_pointer.hpp"

#include "harness/protocol/peer_json.hpp"
#include "harness/scenario/matcher.hpp"
#include "harness/scenario/step_table.hpp"
#include "harness/jsonschema/compiled_schema.hpp"
#include "harness/util/resources.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace mcpspec::scenario {

Level parse_level(const std::string& s) {
  if (s == "MUST") return Level::Must;
  if (s == "SHOULD") return Level::Should;
  if (s == "MAY") return Level::May;
  return Level::Info;
}

std::string LoadError::text() const {
  std::string t = file;
  if (!pointer.empty()) t += ": " + pointer;
  return t + ": " + message;
}

namespace {

const CompiledSchema& scenario_schema() {
  static const CompiledSchema schema = [] {
    auto text = resources::find("harness/scenario/schemas/scenario.schema.json");
    if (!text) throw std::runtime_error("scenario schema is not embedded in this build");
    return CompiledSchema(nlohmann::json::parse(*text));
  }();
  return schema;
}

// A file too deep, or with a string too long for a "pattern", to be checked: a load error, like
// any other way the file fails the scenario schema.
std::vector<JsonSchemaIssue> scenario_schema_issues(const nlohmann::json& doc) {
  try {
    return scenario_schema().validate(doc);
  } catch (const SchemaBeyondLimits& e) {
    return {{"", std::string("cannot be checked against the scenario schema: ") + e.what()}};
  }
}

// Checks steps against the step table: exactly one action, of this scenario's role, with only the
// modifiers it accepts and the companions it needs; matchers and conditions parse.
void check_steps(const nlohmann::json& steps, Role role, const std::string& base, const std::string& file,
                 std::vector<LoadError>& errors) {
  if (!steps.is_array()) return;  // the schema has said so already
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const auto& step = steps[i];
    std::string ptr = base + "/" + std::to_string(i);
    if (!step.is_object()) {
      errors.push_back({file, ptr, "a step must be an object"});
      continue;
    }
    auto found = actions_of(step);
    if (found.size() != 1) {
      std::string known;
      for (const auto& a : step_actions()) known += (known.empty() ? "" : ", ") + std::string(a.name);
      errors.push_back({file, ptr,
                        found.empty() ? "the step has no action (one of: " + known + ")"
                                      : "the step has " + std::to_string(found.size()) + " actions (" +
                                            std::string(found[0]->name) + ", " + std::string(found[1]->name) +
                                            "); split it into separate steps"});
      continue;
    }
    const StepAction& act = *found[0];
    const std::string action(act.name);
    if (!allowed_in(act, role))
      errors.push_back({file, ptr, "\"" + action + "\" is a " + (role == Role::Client ? "server" : "client") +
                                       "-role step; this scenario has role \"" + role_name(role) + "\""});
    // Only a client-role run refreshes variables (http_requests) while a check waits.
    if (action == "check" && step.contains("within_ms") && role != Role::Client)
      errors.push_back({file, ptr + "/within_ms",
                        "\"within_ms\" on a check waits for ${http_requests} to change, which only a client-role "
                        "scenario has"});
    auto listed = [](const std::vector<std::string_view>& names, const std::string& key) {
      return std::find(names.begin(), names.end(), key) != names.end();
    };
    for (const auto& [key, value] : step.items()) {
      (void)value;
      if (key == action || listed(act.modifiers, key) || listed(common_step_modifiers(), key)) continue;
      errors.push_back({file, pointer_child(ptr, key), "\"" + key + "\" does not apply to a \"" + action + "\" step"});
    }
    for (const auto& need : act.required)
      if (!step.contains(std::string(need)))
        errors.push_back({file, ptr, "a \"" + action + "\" step needs \"" + std::string(need) + "\""});
    for (const auto& mp : matcher_pointers(step)) {
      nlohmann::json::json_pointer jp(mp);
      if (!step.contains(jp)) continue;
      try {
        check_matcher(step.at(jp));
      } catch (const MatcherError& e) {
        errors.push_back({file, ptr + mp + (e.pointer() == "/" ? "" : e.pointer()), e.what()});
      }
    }
    if (step.contains("if") && step["if"].contains("protocol")) {
      try {
        protocol::VersionRange::parse(step["if"]["protocol"]);
      } catch (const std::exception& e) {
        errors.push_back({file, ptr + "/if/protocol", e.what()});
      }
    }
    if (action == "foreach") {
      // Found by fuzz/targets/scenario_loader_fuzz.cpp: {"foreach": ""} with no "steps" read a
      // member that is not there.
      if (step.contains("steps") && step["steps"].is_array())
        check_steps(step["steps"], role, ptr + "/steps", file, errors);
      else
        errors.push_back({file, ptr + "/steps", "foreach needs \"steps\": the array of steps run for each item"});
    }
  }
}

// Scenario and fixture files come from outside, so they are read like a peer's frame: not JSON, a
// number beyond a double (nlohmann throws out_of_range for 2e308, not a parse error: found by
// fuzz/targets/scenario_loader_fuzz.cpp) and nesting past the limit are each a load error.
std::optional<nlohmann::json> parse_input_json(const std::string& text, const std::string& file,
                                               std::vector<LoadError>& errors) {
  auto read = protocol::read_peer_json(text);
  using S = protocol::PeerJson::Status;
  switch (read.status) {
    case S::Ok: return std::move(read.value);
    case S::NotJson: errors.push_back({file, "", "not valid JSON: " + read.detail}); break;
    case S::NumberOutOfRange: errors.push_back({file, "", "a number no JSON reader can hold: " + read.detail}); break;
    case S::TooDeep: errors.push_back({file, "", "JSON " + read.detail}); break;
  }
  return std::nullopt;
}

std::optional<nlohmann::json> read_json_file(const std::string& path, std::vector<LoadError>& errors) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    errors.push_back({path, "", "cannot be read"});
    return std::nullopt;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_input_json(ss.str(), path, errors);
}

// A fixture is found in the scenario's folder or the nearest folder above it with fixtures/<name>.json.
std::optional<std::string> find_fixture(const std::string& dir, const std::string& name) {
  fs::path d = fs::absolute(dir);
  for (int depth = 0; depth < 32 && !d.empty(); ++depth) {
    fs::path candidate = d / "fixtures" / (name + ".json");
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
    if (d == d.parent_path()) break;
    d = d.parent_path();
  }
  return std::nullopt;
}

// A fixture file's steps (checked like scenario steps) and the fixture it names for modern
// versions ("at_modern"), or nullopt after reporting why it cannot be used.
struct Fixture {
  nlohmann::json steps;
  std::string at_modern;
};

std::optional<Fixture> load_fixture(const Scenario& s, const std::string& name, std::vector<LoadError>& errors) {
  auto path = find_fixture(s.dir, name);
  if (!path) {
    errors.push_back({s.file, "/fixture", "fixture \"" + name + "\" not found (looked for fixtures/" + name +
                                              ".json in " + s.dir + " and the folders above it)"});
    return std::nullopt;
  }
  auto doc = read_json_file(*path, errors);
  if (!doc) return std::nullopt;
  if (!doc->is_object() || !doc->contains("steps") || !(*doc)["steps"].is_array()) {
    errors.push_back({*path, "", "a fixture file is an object with \"name\" and \"steps\""});
    return std::nullopt;
  }
  Fixture f;
  if (doc->contains("at_modern")) {
    const auto& m = (*doc)["at_modern"];
    if (!m.is_string() || m.get<std::string>().empty() || m.get<std::string>() == name) {
      errors.push_back({*path, "/at_modern", "\"at_modern\" names another fixture (a non-empty string)"});
      return std::nullopt;
    }
    f.at_modern = m.get<std::string>();
  }
  // Fixture steps obey the same rules as scenario steps: validate them inside a stand-in scenario.
  nlohmann::json wrapper = {{"id", "fixture"}, {"title", "fixture"}, {"role", "server"},
                            {"requirements", {"fixture"}}, {"level", "MUST"}, {"steps", (*doc)["steps"]}};
  std::size_t before = errors.size();
  for (auto& issue : scenario_schema_issues(wrapper)) errors.push_back({*path, issue.pointer, issue.message});
  if (errors.size() == before) check_steps((*doc)["steps"], s.role, "/steps", *path, errors);
  if (errors.size() != before) return std::nullopt;
  f.steps = (*doc)["steps"];
  return f;
}

// The scenario's fixture and, when its file names one, the fixture standing in at modern versions.
void resolve_fixtures(Scenario& s, std::vector<LoadError>& errors) {
  auto f = load_fixture(s, s.fixture, errors);
  if (!f) return;
  s.fixture_steps = f->steps;
  if (f->at_modern.empty()) return;
  s.modern_fixture = f->at_modern;
  // A stand-in that is not there (a fixture file copied without it) leaves the scenario runnable
  // at the legacy versions: null steps make the runner skip it at modern ones, saying why.
  if (!find_fixture(s.dir, f->at_modern)) {
    s.modern_fixture_steps = nullptr;
    return;
  }
  auto modern = load_fixture(s, f->at_modern, errors);
  if (!modern) return;
  if (!modern->at_modern.empty()) {
    errors.push_back({s.file, "/fixture", "fixture \"" + f->at_modern + "\" (at_modern of \"" + s.fixture +
                                              "\") names a further at_modern; one step of indirection is allowed"});
    return;
  }
  s.modern_fixture_steps = modern->steps;
}

void parse_scenario(const nlohmann::json& doc, const std::string& file, LoadOutcome& out) {
  std::size_t before = out.errors.size();
  for (auto& issue : scenario_schema_issues(doc)) out.errors.push_back({file, issue.pointer, issue.message});
  if (out.errors.size() != before) return;
  Scenario s;
  s.file = file;
  s.dir = fs::path(file).parent_path().string();
  if (s.dir.empty()) s.dir = ".";
  s.id = doc["id"];
  s.title = doc["title"];
  s.description = doc.value("description", "");
  s.role = doc["role"] == "client" ? Role::Client : Role::Server;  // the schema allows only these two
  auto slash = s.id.find('/');
  auto second = slash == std::string::npos ? std::string::npos : s.id.find('/', slash + 1);
  s.area = slash == std::string::npos ? "general"
                                      : s.id.substr(slash + 1, second == std::string::npos ? std::string::npos
                                                                                           : second - slash - 1);
  if (second == std::string::npos) s.area = slash == std::string::npos ? s.id : s.id.substr(0, slash);
  s.requirements = doc["requirements"].get<std::vector<std::string>>();
  s.level = parse_level(doc["level"]);
  if (doc.contains("protocol")) {
    try {
      s.protocol = protocol::VersionRange::parse(doc["protocol"]);
    } catch (const std::exception& e) {
      out.errors.push_back({file, "/protocol", e.what()});
    }
  }
  if (doc.contains("requires")) {
    const auto& r = doc["requires"];
    s.server_capabilities = r.value("server_capabilities", std::vector<std::string>{});
    s.client_capabilities = r.value("client_capabilities", std::vector<std::string>{});
    s.transports = r.value("transports", std::vector<std::string>{});
  }
  s.tags = doc.value("tags", std::vector<std::string>{});
  s.fixture = doc.value("fixture", std::string(s.role == Role::Server ? "initialized" : "none"));
  if (doc.contains("timeout_ms")) s.timeout_ms = doc["timeout_ms"].get<int>();
  const std::string validate = doc.value("validate", "full");
  s.validate = validate == "off" ? ValidateMode::Off : validate == "envelope" ? ValidateMode::Envelope : ValidateMode::Full;
  if (doc.contains("monitors"))
    for (const auto& [k, v] : doc["monitors"].items()) s.monitors[k] = v.get<bool>();
  if (doc.contains("workdir") && doc["workdir"].contains("from")) {
    fs::path from = fs::path(s.dir) / doc["workdir"]["from"].get<std::string>();
    std::error_code ec;
    if (!fs::is_directory(from, ec))
      out.errors.push_back({file, "/workdir/from", "\"" + from.string() + "\" is not a folder"});
    s.workdir_from = fs::absolute(from).lexically_normal().string();
  }
  if (doc.contains("env"))
    for (const auto& [k, v] : doc["env"].items()) s.env[k] = v.get<std::string>();
  s.steps = doc["steps"];
  if (doc.contains("client_context")) s.client_context = doc["client_context"];
  if (doc.contains("declare")) s.declare = doc["declare"];
  if (doc.contains("serve_versions")) s.serve_versions = doc["serve_versions"];
  if (doc.contains("transport_options")) s.transport_options = doc["transport_options"];
  s.fetch_trap = doc.value("fetch_trap", false);
  if (s.fetch_trap && s.role != Role::Client)
    out.errors.push_back({file, "/fetch_trap", "fetch_trap is for client-role scenarios (the harness as the server)"});
  if (doc.contains("answers")) s.answers = doc["answers"];
  check_steps(s.steps, s.role, "/steps", file, out.errors);
  if (s.fixture != "none") resolve_fixtures(s, out.errors);
  if (out.errors.size() == before) out.scenarios.push_back(std::move(s));
}

bool is_scenario_candidate(const fs::path& p, const fs::path& root) {
  if (p.extension() != ".json") return false;
  std::string name = p.filename().string();
  if (name.rfind('_', 0) == 0 || name == "targets.json" || name.rfind("baseline", 0) == 0 ||
      name.rfind("profile", 0) == 0)
    return false;
  // Only folders below the scanned one count: a suite kept under .../requirements/ is still found.
  for (const auto& part : p.lexically_relative(root).parent_path())
    if (part == "fixtures" || part == "requirements" || part == "node_modules") return false;
  return true;
}

}  // namespace

std::vector<std::string> matcher_pointers(const nlohmann::json& step) {
  std::vector<std::string> out;
  if (!step.is_object()) return out;
  for (const char* key : {"expect", "expect_no", "collect", "matches", "where", "text", "json", "end_if"})
    if (step.contains(key)) out.push_back(std::string("/") + key);
  if (step.contains("if") && step["if"].is_object() && step["if"].contains("matches")) out.push_back("/if/matches");
  if (step.contains("expect_unordered") && step["expect_unordered"].is_array())
    for (std::size_t i = 0; i < step["expect_unordered"].size(); ++i)
      out.push_back("/expect_unordered/" + std::to_string(i));
  if (step.contains("expect_exit") && step["expect_exit"].is_object() && step["expect_exit"].contains("code"))
    out.push_back("/expect_exit/code");
  return out;
}

LoadOutcome load_scenario_text(const std::string& text, const std::string& file) {
  LoadOutcome out;
  auto doc = parse_input_json(text, file, out.errors);
  if (!doc) return out;
  parse_scenario(*doc, file, out);
  return out;
}

LoadOutcome load_scenarios(const std::vector<std::string>& paths) {
  LoadOutcome out;
  std::vector<std::string> files;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      for (auto it = fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
           it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec) break;
        if (it->is_regular_file(ec) && is_scenario_candidate(it->path(), p)) files.push_back(it->path().string());
      }
    } else if (fs::is_regular_file(p, ec)) {
      files.push_back(p);
    } else {
      out.errors.push_back({p, "", "no such file or folder"});
    }
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  for (const auto& f : files) {
    auto doc = read_json_file(f, out.errors);
    if (doc) parse_scenario(*doc, f, out);
  }
  std::sort(out.scenarios.begin(), out.scenarios.end(), [](const Scenario& a, const Scenario& b) { return a.id < b.id; });
  // Ids must be unique: a duplicate would make --filter, baselines and reports ambiguous.
  for (std::size_t i = 1; i < out.scenarios.size(); ++i)
    if (out.scenarios[i].id == out.scenarios[i - 1].id)
      out.errors.push_back({out.scenarios[i].file, "/id",
                            "id \"" + out.scenarios[i].id + "\" is also used by " + out.scenarios[i - 1].file});
  return out;
}

}  // namespace mcpspec::scenario
