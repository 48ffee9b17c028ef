#include "harness/monitor/schema_validity.hpp"

#include "harness/jsonschema/compiled_schema.hpp"
#include "harness/util/resources.hpp"

#include <stdexcept>

namespace mcpspec::monitor {

using nlohmann::json;

namespace {

constexpr const char* kKeywordsSchema = "harness/monitor/schemas/json-schema-2020-12-keywords.schema.json";

const CompiledSchema& keywords_schema() {
  static const CompiledSchema schema = [] {
    auto text = resources::find(kKeywordsSchema);
    if (!text) throw std::runtime_error(std::string(kKeywordsSchema) + " is not embedded in this build");
    return CompiledSchema(json::parse(*text));
  }();
  return schema;
}

}  // namespace

bool judged_as_2020_12(const json& schema) {
  if (!schema.is_object() || !schema.contains("$schema")) return true;
  const json& uri = schema["$schema"];
  if (!uri.is_string()) return true;  // not a dialect name at all: the keyword check reports it
  std::string s = uri.get<std::string>();
  if (!s.empty() && s.back() == '#') s.pop_back();
  return s == "https://json-schema.org/draft/2020-12/schema" || s == "http://json-schema.org/draft/2020-12/schema";
}

std::optional<std::string> invalid_2020_12(const json& schema) {
  if (!judged_as_2020_12(schema)) return std::nullopt;
  std::vector<JsonSchemaIssue> issues;
  try {
    issues = keywords_schema().validate(schema, 1);
  } catch (const SchemaBeyondLimits&) {
    return std::nullopt;  // too deep or too costly to decide: not judged rather than guessed
  }
  if (issues.empty()) return std::nullopt;
  const std::string where = issues.front().pointer.empty() ? "the root" : issues.front().pointer;
  return "at " + where + ": " + issues.front().message;
}

Findings judge_tool_schemas(const json& result) {
  Findings out;
  if (!result.is_object() || !result.contains("tools") || !result["tools"].is_array()) return out;
  for (const auto& tool : result["tools"]) {
    if (out.size() >= 5) break;
    if (!tool.is_object()) continue;
    const std::string who = "tool " + (tool.contains("name") ? tool["name"].dump().substr(0, 60) : std::string("(unnamed)"));
    if (tool.contains("inputSchema") && !(tool["inputSchema"].is_object() && tool["inputSchema"].value("type", json()) == "object")) {
      out.push_back({"modern", {"JSD-05"}, who + ": the inputSchema's root does not have type \"object\""});
      continue;
    }
    for (const char* which : {"inputSchema", "outputSchema"}) {
      if (!tool.contains(which)) continue;
      if (auto why = invalid_2020_12(tool[which])) {
        out.push_back({"modern", {"JSD-05"}, who + ": the " + which + " is not valid JSON Schema 2020-12, " + *why});
        break;
      }
    }
  }
  return out;
}

}  // namespace mcpspec::monitor
