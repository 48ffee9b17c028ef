#pragma once
// What the schema registry holds for one protocol version: the compiled schema, its definitions by
// name, the method table and the envelope definitions. Built by method_tables.cpp (from our
// embedded files or a user's schema file); read by definition_choice.cpp and the registry's API.
#include "harness/jsonschema/guard.hpp"
#include "harness/protocol/schema_registry.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace valijson {
class Schema;
class Subschema;
}  // namespace valijson

namespace mcpspec::protocol {

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};
template <typename V>
using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

// Definition names used to pick the envelope of each kind of message. Ours and the official
// files name them differently; a user file is searched for each candidate in turn.
struct EnvelopeNames {
  std::string request, notification, result_response, error_response, any;
};

struct MethodEntry {
  MethodInfo info;
  std::string message_def;   // the whole request/notification (ours include the envelope)
  std::string task_result;   // result when the request ran as a task (2025-11-25), or ""
};

struct SchemaRegistry::VersionData {
  std::string version;
  std::string origin;                // "built-in" or the file path
  bool builtin = false;
  bool batches = false;              // built-in: the version defines batches; user file: let it decide
  bool message_defs_have_envelope = false;
  std::vector<std::string> notes;
  nlohmann::json document;           // kept alive alongside the compiled schema it was read from
  SchemaBounds bounds;               // how deep valijson may recurse on it (checked for user files)
  std::unique_ptr<valijson::Schema> schema;
  StringMap<const valijson::Subschema*> definitions;
  std::vector<std::string> names;    // sorted
  StringMap<MethodEntry> methods;
  EnvelopeNames envelope;

  const valijson::Subschema* definition(std::string_view name) const {
    auto it = definitions.find(name);
    return it == definitions.end() ? nullptr : it->second;
  }
  const MethodEntry* method(std::string_view name) const {
    auto it = methods.find(name);
    return it == methods.end() ? nullptr : &it->second;
  }
};

namespace detail {

using VersionData = SchemaRegistry::VersionData;

// The versions whose schemas are embedded in this binary (sorted).
std::vector<std::string> builtin_versions();
// Our own schema and method table of `version` (embedded files; a missing or corrupt one is a
// build bug: std::logic_error).
std::unique_ptr<VersionData> load_builtin(const std::string& version);
// A user's schema document (already rewritten to draft-07) as one version's data: envelope and
// methods picked by the official definition names; `ours` (our data for the same version, or null)
// supplies what a schema file does not say (result definitions, capabilities, task results).
// Throws std::runtime_error naming `origin` when the document cannot be used.
std::unique_ptr<VersionData> load_user(nlohmann::json document, bool draft4, const std::string& version,
                                       const std::string& origin, std::vector<std::string> notes,
                                       const VersionData* ours);

}  // namespace detail
}  // namespace mcpspec::protocol
