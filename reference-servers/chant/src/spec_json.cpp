#include "spec_json.hpp"

namespace chant {

using mcpref::Json;

namespace {

Json optional_text(const std::optional<std::string>& v) { return v ? Json(*v) : Json(nullptr); }

}  // namespace

Json spec_summary(const Spec& s) {
  Json j = Json::object();
  j["id"] = s.id;
  j["title"] = optional_text(s.title);
  j["status"] = std::string(to_string(s.status));
  j["type"] = s.type;
  j["depends_on"] = s.depends_on;
  j["labels"] = s.labels;
  return j;
}

Json spec_detail(const Spec& s, const ProjectPaths& paths) {
  Json j = spec_summary(s);
  j["prompt"] = optional_text(s.prompt);
  j["created"] = optional_text(s.created);
  j["updated"] = optional_text(s.updated);
  j["completed_at"] = optional_text(s.completed_at);
  j["commits"] = s.commits;
  j["file"] = paths.display(paths.specs / (s.id + ".md"));
  j["body"] = s.doc.body;
  return j;
}

Json problems_json(const std::vector<SpecStore::Problem>& problems) {
  Json arr = Json::array();
  for (const auto& p : problems) {
    Json e = Json::object();
    e["file"] = p.file;
    e["error"] = p.message;
    arr.push_back(std::move(e));
  }
  return arr;
}

Readiness::Readiness(const std::vector<Spec>& active, const std::vector<std::string>& archived)
    : archived_(archived.begin(), archived.end()) {
  for (const auto& s : active) active_[s.id] = s.status;
}

std::vector<std::string> Readiness::unmet(const Spec& spec) const {
  std::vector<std::string> out;
  for (const auto& dep : spec.depends_on) {
    if (archived_.count(dep)) continue;
    auto it = active_.find(dep);
    if (it != active_.end() && it->second == Status::Completed) continue;
    out.push_back(dep);
  }
  return out;
}

bool Readiness::exists(const std::string& id) const {
  return archived_.count(id) > 0 || active_.count(id) > 0;
}

bool Readiness::ready(const Spec& spec) const {
  return spec.status == Status::Pending && unmet(spec).empty();
}

}  // namespace chant
