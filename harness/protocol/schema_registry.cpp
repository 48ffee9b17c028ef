#include "harness/protocol/schema_registry.hpp"
#include "harness/protocol/definition_choice.hpp"
#include "harness/protocol/schema_dialect.hpp"
#include "harness/protocol/schema_version.hpp"

#include <valijson/schema.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace mcpspec::protocol {

using nlohmann::json;

namespace {

std::string known_list(const std::vector<std::string>& versions) {
  std::string out;
  for (const auto& v : versions) out += (out.empty() ? "" : ", ") + v;
  return out;
}

}  // namespace

const char* sender_name(Sender s) { return s == Sender::Client ? "client" : "server"; }

SchemaRegistry::SchemaRegistry() = default;
SchemaRegistry::~SchemaRegistry() = default;

const SchemaRegistry& SchemaRegistry::builtin() {
  static const SchemaRegistry* instance = [] {
    std::unique_ptr<SchemaRegistry> registry(new SchemaRegistry());
    for (const auto& version : detail::builtin_versions()) registry->versions_.push_back(detail::load_builtin(version));
    if (registry->versions_.empty()) throw std::logic_error("no built-in schemas are embedded in this binary");
    return registry.release();  // never destroyed: other statics may still validate at exit
  }();
  return *instance;
}

ValidationOutcome SchemaRegistry::unknown_version(std::string_view version) const {
  ValidationOutcome out;
  out.valid = false;
  out.issues.push_back({"", "unknown protocol version '" + std::string(version) + "' (known: " + known_list(versions()) + ")"});
  return out;
}

std::unique_ptr<SchemaRegistry> SchemaRegistry::from_file(const std::string& path, const std::string& version) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw std::runtime_error("schema file '" + path + "' " +
                             (std::filesystem::exists(path, ec) ? "is not a regular file" : "does not exist"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read schema file '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw std::runtime_error("cannot read schema file '" + path + "'");
  json document;
  try {
    document = json::parse(text.str());
  } catch (const json::exception& e) {  // parse_error, or out_of_range for a number beyond a double
    throw std::runtime_error("schema file '" + path + "' is not valid JSON: " + e.what());
  }
  return from_document(std::move(document), version, path);
}

std::unique_ptr<SchemaRegistry> SchemaRegistry::from_document(json document, const std::string& version,
                                                              const std::string& origin) {
  if (version.empty()) throw std::runtime_error(origin + ": a protocol version must be given for the schema");
  auto prepared = schema_dialect::to_draft07(std::move(document), origin);
  std::unique_ptr<SchemaRegistry> registry(new SchemaRegistry());
  registry->versions_.push_back(detail::load_user(std::move(prepared.document), prepared.parse_as_draft4, version,
                                                  origin, std::move(prepared.notes), builtin().find(version)));
  return registry;
}

const SchemaRegistry::VersionData* SchemaRegistry::find(std::string_view version) const {
  for (const auto& vd : versions_) {
    if (vd->version == version) return vd.get();
  }
  return nullptr;
}

std::vector<std::string> SchemaRegistry::versions() const {
  std::vector<std::string> out;
  for (const auto& vd : versions_) out.push_back(vd->version);
  return out;
}

bool SchemaRegistry::has_version(std::string_view version) const { return find(version) != nullptr; }

ValidationOutcome SchemaRegistry::validate(const json& message, std::string_view version, Sender sender,
                                           std::string_view answered_method) const {
  const VersionData* vd = find(version);
  if (vd == nullptr) return unknown_version(version);
  return detail::check_message(*vd, message, sender, answered_method);
}

std::optional<MethodInfo> SchemaRegistry::method(std::string_view version, std::string_view name) const {
  const VersionData* vd = find(version);
  if (vd == nullptr) return std::nullopt;
  const MethodEntry* m = vd->method(name);
  if (m == nullptr) return std::nullopt;
  return m->info;
}

std::vector<MethodInfo> SchemaRegistry::methods(std::string_view version) const {
  std::vector<MethodInfo> out;
  const VersionData* vd = find(version);
  if (vd == nullptr) return out;
  for (const auto& [name, m] : vd->methods) out.push_back(m.info);
  std::sort(out.begin(), out.end(), [](const MethodInfo& a, const MethodInfo& b) { return a.name < b.name; });
  return out;
}

ValidationOutcome SchemaRegistry::validate_definition(const json& value, std::string_view version,
                                                      std::string_view definition) const {
  const VersionData* vd = find(version);
  if (vd == nullptr) {
    ValidationOutcome out = unknown_version(version);
    out.definition = std::string(definition);
    return out;
  }
  return detail::check_definition(*vd, value, definition);
}

std::vector<std::string> SchemaRegistry::definitions(std::string_view version) const {
  const VersionData* vd = find(version);
  return vd == nullptr ? std::vector<std::string>() : vd->names;
}

bool SchemaRegistry::has_definition(std::string_view version, std::string_view definition) const {
  const VersionData* vd = find(version);
  return vd != nullptr && vd->definition(definition) != nullptr;
}

std::vector<std::string> SchemaRegistry::notes(std::string_view version) const {
  const VersionData* vd = find(version);
  return vd == nullptr ? std::vector<std::string>() : vd->notes;
}

}  // namespace mcpspec::protocol