// chant_diagnose: a set of named checks on one spec, a one-line diagnosis and a suggestion.
// It works on specs that do not parse too, which makes it the tool for a broken file.
#include "tools.hpp"

#include "criteria.hpp"
#include "spec_json.hpp"
#include "tool_error.hpp"

#include "mcpref/file_lock.hpp"
#include "mcpref/tool_result.hpp"

#include <fmt/format.h>

#include <filesystem>

namespace chant {

using mcpref::Json;

namespace {

struct Check {
  std::string name;
  bool passed;
  std::string details;
  std::string suggestion;  // used when the check fails
};

bool lock_is_free(const ProjectPaths& paths) {
  try {
    auto probe = mcpref::FileLock::acquire(paths.lock, std::chrono::milliseconds(0));
    return true;
  } catch (const mcpref::LockTimeout&) {
    return false;
  } catch (const std::exception&) {
    return true;  // cannot even open it: no one else holds it through this file either
  }
}

}  // namespace

Json tool_diagnose(SpecStore& store, const ToolArgs& args) {
  std::string id = store.resolve(args.required_string("id"));
  const ProjectPaths& paths = store.paths();
  std::string file = paths.display(store.spec_file(id));
  std::vector<Check> checks;

  std::optional<Spec> spec;
  std::string status_text = "unknown";
  try {
    std::string text = store.read_text(id);
    checks.push_back({"spec_file", true, fmt::format("{} ({} bytes)", file, text.size()), ""});
    try {
      spec = parse_spec(id, text);
      status_text = std::string(to_string(spec->status));
      std::string details = "front matter is valid";
      bool ok = true;
      if (spec->declared_id && *spec->declared_id != id) {
        ok = false;
        details = fmt::format("front matter id '{}' differs from the file name '{}'", *spec->declared_id, id);
      }
      checks.push_back({"front_matter", ok, details,
                        fmt::format("Make the id in {} match its file name (the file name wins)", file)});
    } catch (const FrontMatterError& e) {
      checks.push_back({"front_matter", false, e.what(),
                        fmt::format("Fix the front matter of {} ({})", file, e.what())});
    }
  } catch (const ToolError& e) {
    checks.push_back({"spec_file", false, e.what(),
                      fmt::format("Check that {} is a readable regular file", file)});
  }

  std::string log = paths.display(store.log_file(id));
  std::error_code ec;
  bool has_log = std::filesystem::is_regular_file(store.log_file(id), ec);
  if (spec && spec->status == Status::InProgress && !has_log) {
    checks.push_back({"log", false,
                      fmt::format("spec is in_progress but {} does not exist: no agent seems to "
                                  "be working on it", log),
                      "If no agent is working on it, reset it with chant_resume"});
  } else {
    checks.push_back({"log", true, has_log ? fmt::format("{} exists", log) : fmt::format("no log yet ({})", log), ""});
  }

  bool free = lock_is_free(paths);
  checks.push_back({"lock", free,
                    free ? fmt::format("{} is not held", paths.display(paths.lock))
                         : fmt::format("another chant process holds {} right now", paths.display(paths.lock)),
                    "Wait for the other chant process to finish its update"});

  if (spec) {
    checks.push_back({"commits", true,
                      spec->commits.empty() ? "no commits recorded"
                                            : fmt::format("{} commit(s) recorded", spec->commits.size()),
                      ""});

    Criteria c = count_criteria(spec->doc.body);
    bool finished = spec->status == Status::Completed;
    bool ok = !(finished && c.unchecked > 0);
    checks.push_back({"criteria", ok,
                      fmt::format("{} of {} acceptance criteria checked", c.checked, c.total),
                      "Check the remaining criteria, or set the status back to in_progress"});

    auto listing = store.load_all();
    Readiness readiness(listing.specs, store.archived_ids());
    std::vector<std::string> missing, waiting;
    for (const auto& dep : spec->depends_on) {
      if (!readiness.exists(dep)) missing.push_back(dep);
    }
    for (const auto& dep : readiness.unmet(*spec)) {
      if (readiness.exists(dep)) waiting.push_back(dep);
    }
    std::string details;
    if (spec->depends_on.empty()) {
      details = "no dependencies";
    } else if (!missing.empty()) {
      details = fmt::format("unknown dependencies: {}", fmt::join(missing, ", "));
    } else if (!waiting.empty()) {
      details = fmt::format("waiting on: {}", fmt::join(waiting, ", "));
    } else {
      details = "all dependencies completed";
    }
    checks.push_back({"dependencies", missing.empty(), details,
                      "Correct or remove the unknown ids in depends_on"});
  }

  Json list = Json::array();
  std::vector<std::string> failures;
  std::optional<std::string> suggestion;
  for (const auto& c : checks) {
    Json j = Json::object();
    j["name"] = c.name;
    j["passed"] = c.passed;
    j["details"] = c.details;
    list.push_back(std::move(j));
    if (!c.passed) {
      failures.push_back(fmt::format("{}: {}", c.name, c.details));
      if (!suggestion) suggestion = c.suggestion;
    }
  }

  Json out = Json::object();
  out["spec_id"] = id;
  out["status"] = status_text;
  out["location"] = file;
  out["checks"] = std::move(list);
  out["diagnosis"] = failures.empty() ? std::string("No problems found")
                                      : fmt::format("{}", fmt::join(failures, "; "));
  out["suggestion"] = suggestion ? Json(*suggestion) : Json(nullptr);
  return mcpref::tool_success(mcpref::to_pretty(out));
}

}  // namespace chant
