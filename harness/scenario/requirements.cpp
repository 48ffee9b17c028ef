#include "harness/scenario/requirements.hpp"

#include "harness/scenario/model.hpp"
#include "harness/util/resources.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace mcpspec::scenario {

void RequirementCatalog::add_version(const std::string& text, const std::string& origin) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    throw std::runtime_error(origin + ": not valid JSON: " + e.what());
  }
  if (!doc.is_object() || !doc.contains("protocol") || !doc.contains("requirements") || !doc["requirements"].is_array())
    throw std::runtime_error(origin + ": a catalog needs \"protocol\" and a \"requirements\" array");
  Version v;
  v.protocol = doc["protocol"].get<std::string>();
  if (doc.contains("areas") && doc["areas"].is_object())
    for (const auto& [k, t] : doc["areas"].items()) v.areas.emplace_back(k, t.is_string() ? t.get<std::string>() : k);
  for (std::size_t i = 0; i < doc["requirements"].size(); ++i) {
    const auto& r = doc["requirements"][i];
    if (!r.is_object() || !r.contains("id") || !r["id"].is_string())
      throw std::runtime_error(origin + ": /requirements/" + std::to_string(i) + ": needs a string \"id\"");
    Requirement q;
    q.id = r["id"];
    q.area = r.value("area", "");
    q.keyword = r.value("keyword", "");
    q.summary = r.value("summary", "");
    q.section = r.value("section", "");
    q.testable = r.value("testable", "");
    q.heuristic = r.value("heuristic", false);
    q.level = parse_level(r.value("level", "INFO"));
    v.rows.push_back(std::move(q));
  }
  versions_.push_back(std::move(v));
}

const RequirementCatalog& RequirementCatalog::builtin() {
  static const RequirementCatalog catalog = [] {
    RequirementCatalog c;
    for (auto path : resources::list("scenarios/requirements/"))
      if (path.size() > 5 && path.substr(path.size() - 5) == ".json")
        c.add_version(std::string(*resources::find(path)), std::string(path));
    return c;
  }();
  return catalog;
}

RequirementCatalog RequirementCatalog::from_directory(const std::string& dir) {
  RequirementCatalog c;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".json") continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    c.add_version(ss.str(), e.path().string());
  }
  return c;
}

std::optional<Requirement> RequirementCatalog::find(std::string_view version, std::string_view id) const {
  for (const auto& v : versions_)
    if (v.protocol == version)
      for (const auto& r : v.rows)
        if (r.id == id) return r;
  return std::nullopt;
}

std::vector<Requirement> RequirementCatalog::all(std::string_view version) const {
  for (const auto& v : versions_)
    if (v.protocol == version) return v.rows;
  return {};
}

std::vector<std::string> RequirementCatalog::versions() const {
  std::vector<std::string> out;
  for (const auto& v : versions_) out.push_back(v.protocol);
  return out;
}

std::string RequirementCatalog::area_title(std::string_view version, std::string_view area) const {
  for (const auto& v : versions_)
    if (v.protocol == version)
      for (const auto& [k, t] : v.areas)
        if (k == area) return t;
  return std::string(area);
}

Level RequirementCatalog::level_of(std::string_view version, std::string_view id) const {
  if (auto r = find(version, id)) return r->level;
  // Unknown in this version: look in any version before giving up (ids are stable across versions).
  for (const auto& v : versions_)
    for (const auto& r : v.rows)
      if (r.id == id) return r.level;
  return Level::Must;
}

Level RequirementCatalog::strictest_level(std::string_view version, const std::vector<std::string>& ids) const {
  Level level = Level::Info;
  for (const auto& id : ids) {
    Level l = level_of(version, id);
    if (static_cast<int>(l) < static_cast<int>(level)) level = l;
  }
  return level;
}

}  // namespace mcpspec::scenario
