#pragma once
// Schema validation of MCP messages, per protocol version. The built-in registry holds mcpspec's
// own schemas (harness/protocol/schemas/<version>/, embedded in the binary); from_file() loads a
// schema file the user holds, such as the official one. The method tables are method_tables.cpp's,
// which definitions a message is checked against is definition_choice.cpp's. docs/schemas.md explains how a message is
// matched to a definition and where our schemas deliberately differ from the official files.
#include "harness/jsonschema/check.hpp"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpspec::protocol {

enum class Sender { Client, Server };                   // who sent the message being validated
const char* sender_name(Sender s);                      // "client" / "server"

using SchemaIssue = JsonSchemaIssue;  // pointer into the message, readable text (jsonschema/check.hpp)

struct ValidationOutcome {
  bool valid = true;                      // no issue found (see `unchecked`: not the same as "checked and fine")
  std::string definition;                 // which definition was used, e.g. "CallToolResult"
  std::vector<SchemaIssue> issues;        // empty when valid; readable, most specific first
  // What could not be checked, and why: a user's schema file beyond mcpspec's limits (a "pattern"
  // too costly on the string, a message too deep for the file). Such a part is neither valid nor
  // invalid; reporting it invalid would fail a server that may be right. Never set for our own
  // schemas (no pattern; fuzzed at every depth the reader accepts).
  std::vector<std::string> unchecked;
};

// One method of a protocol version. from: client|server|both; kind: request|notification;
// params/result: definition names ("" when none); capability: "server:tools", "client:sampling",
// "receiver:tasks.list" ... ("" when no capability is needed or, for a user file, not known).
struct MethodInfo { std::string name, from, kind, params, result, capability; };

class SchemaRegistry {
 public:
  static const SchemaRegistry& builtin();                          // our embedded schemas, all 4 versions (thread-safe)
  // A schema file the user holds (e.g. the official one, which uses $defs / 2020-12): one version's worth of definitions.
  // Throws std::runtime_error with a clear message (file, what is wrong) if it cannot be used.
  static std::unique_ptr<SchemaRegistry> from_file(const std::string& path, const std::string& version);
  // The same from a document already in memory; `origin` names it in error messages.
  static std::unique_ptr<SchemaRegistry> from_document(nlohmann::json document, const std::string& version,
                                                       const std::string& origin);

  SchemaRegistry(const SchemaRegistry&) = delete;
  SchemaRegistry& operator=(const SchemaRegistry&) = delete;
  ~SchemaRegistry();

  std::vector<std::string> versions() const;
  bool has_version(std::string_view version) const;
  // Validate one message (object or, in 2025-03-26, batch array). For a response, `answered_method` is the method of the
  // request it answers ("" when unknown: then only the envelope + generic result is checked). For requests and
  // notifications the method inside the message selects the params definition; an unknown method is valid at schema
  // level (method-not-found is a protocol matter, not a schema one) but must still have a valid envelope.
  // In a batch, responses are checked against the generic result (one answered_method cannot fit them all).
  ValidationOutcome validate(const nlohmann::json& message, std::string_view version, Sender sender,
                             std::string_view answered_method = {}) const;
  std::optional<MethodInfo> method(std::string_view version, std::string_view name) const;
  std::vector<MethodInfo> methods(std::string_view version) const;
  // Validate an arbitrary value against a named definition (used by matchers: {"$schema": "Tool"}).
  ValidationOutcome validate_definition(const nlohmann::json& value, std::string_view version, std::string_view definition) const;

  // Names of all definitions of a version (sorted); empty for an unknown version.
  std::vector<std::string> definitions(std::string_view version) const;
  bool has_definition(std::string_view version, std::string_view definition) const;
  // What a user file needed rewriting ($defs renamed, ...); empty for the built-in schemas.
  std::vector<std::string> notes(std::string_view version) const;

  struct VersionData;  // compiled schemas + method table of one version (defined in the .cpp)

 private:
  SchemaRegistry();
  const VersionData* find(std::string_view version) const;
  ValidationOutcome unknown_version(std::string_view version) const;

  std::vector<std::unique_ptr<VersionData>> versions_;
};

}  // namespace mcpspec::protocol
