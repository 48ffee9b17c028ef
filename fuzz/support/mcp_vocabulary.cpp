#include "fuzz/support/mcp_vocabulary.hpp"

#include "harness/util/resources.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>

namespace mcpspec::fuzz {

namespace {

std::vector<std::string> methods_from_schemas() {
  std::set<std::string> names;
  for (auto path : resources::list("harness/protocol/schemas/")) {
    if (path.size() < 13 || path.substr(path.size() - 13) != "/methods.json") continue;
    auto text = resources::find(path);
    if (!text) continue;
    auto doc = nlohmann::json::parse(*text, nullptr, false);
    if (!doc.is_object() || !doc.contains("methods") || !doc["methods"].is_object()) continue;
    for (const auto& [name, info] : doc["methods"].items()) names.insert(name);
  }
  // Near misses a strict peer must treat as unknown methods.
  for (const char* extra : {"", "rpc.discover", "tools/List", "tools/list/", "initialize ", "notifications/",
                            "$/cancelRequest"})
    names.insert(extra);
  names.insert(std::string("tools\0list", 10));  // an embedded NUL
  return {names.begin(), names.end()};
}

Vocabulary build() {
  Vocabulary v;
  v.methods = methods_from_schemas();
  v.member_names = {"jsonrpc", "id", "method", "params", "result", "error", "code", "message", "data", "_meta",
                    "progressToken", "progress", "total", "cursor", "nextCursor", "protocolVersion", "capabilities",
                    "clientInfo", "serverInfo", "name", "version", "title", "tools", "resources", "prompts",
                    "logging", "completions", "sampling", "roots", "elicitation", "tasks", "listChanged",
                    "subscribe", "uri", "arguments", "content", "type", "text", "isError", "structuredContent",
                    "inputSchema", "outputSchema", "requestId", "reason", "level", "task", "ttl", "taskId",
                    "status", "mimeType", "blob", "annotations", "instructions"};
  v.matcher_operators = {"$absent", "$allOf",   "$any",  "$anyOf",      "$capture", "$conformsTo", "$contains",
                         "$each",   "$eq",      "$exact", "$generate",  "$gt",      "$gte",        "$in",
                         "$increasing", "$len", "$lt",   "$lte",        "$not",     "$ref",        "$regex",
                         "$schema", "$type",    "$unique", "$uri"};
  using L64 = std::numeric_limits<std::int64_t>;
  v.boundary_numbers = {0, -1, 1, 2, 127, 128, 255, 256, 65535, 65536,
                        std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::min(),
                        L64::max(), L64::min(), std::numeric_limits<std::uint64_t>::max(),
                        9007199254740993.0, 1e308, -1e308, 4.9e-324, -0.0, 0.5, 1.0, -32700, -32600,
                        -32601, -32602, -32603, -32000, -32099, -32002, -32042};
  v.odd_ids = {0, -1, 1, "1", "", " ", "0", nullptr, true, 1.0, 1.5, L64::max(), L64::min(),
               std::numeric_limits<std::uint64_t>::max(), nlohmann::json::array(), nlohmann::json::object(),
               std::string(300, 'x'), std::string("\u00e9\0", 3), "i:1", "s:1"};
  v.odd_strings = {"", " ", std::string(1, '\0'), "\r\n", "\n", "\\", "\"", "\u2028", "\U0001F600", "${", "${}", "$${x}",
                   "${a.b.0}", "${init.capabilities}", "(a+)+$", "(a|aa)*b", "((((((((((x))))))))))", "[", "*",
                   "a{1000000}", "\\1", "2025-06-18", "2024-11-05", "2025-03-26", "2025-11-25", "9999-99-99",
                   "file:///", "http://127.0.0.1:1/", "data:,", std::string(5000, 'a'), "0", "-1", "1e400",
                   "true", "null", "string", "integer", "object", "array", "number", "boolean", "minimal", "full",
                   "wrong-type", "missing-required"};
  v.schema_subschema = {"not", "if", "then", "else", "items", "additionalItems", "additionalProperties",
                        "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems"};
  v.schema_schema_list = {"allOf", "anyOf", "oneOf", "prefixItems", "items"};
  v.schema_schema_map = {"properties", "patternProperties", "definitions", "$defs", "dependentSchemas",
                         "dependencies"};
  v.schema_number = {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength",
                     "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains",
                     "maxContains"};
  v.schema_other = {"type", "enum", "const", "required", "pattern", "format", "$ref", "uniqueItems",
                    "dependentRequired", "default", "$schema", "$id", "id", "$comment", "title",
                    "exclusiveMinimum", "$anchor", "$dynamicRef"};
  v.schema_formats = {"date-time", "date", "time", "email", "hostname", "ipv4", "ipv6", "uri", "uri-reference",
                      "uuid", "regex", "json-pointer", "duration", "byte"};
  v.regex_fragments = {"a", ".", "\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\b", "\\B", "^", "$", "|",
                       "*", "+", "?", "*?", "+?", "??", "{2}", "{2,}", "{0,3}", "{3,1}", "{1000}", "(", ")", "(?:",
                       "(?=", "(?!", "(?<=", "[", "]", "[^", "[a-z]", "[z-a]", "[\\b]", "[[:alpha:]]",
                       "[[:digit:][:space:]]", "[[:nope:]]", "[[.a.]]", "[[=a=]]", "\\1", "\\2", "\\0",
                       "\\x41", "\\u00e9", "\\cA", "\\n", "\\t", "\\f", "\\v", "\\/", "\\.", "\\",
                       "\u00e9", "\U0001F600", "-", ",", "}", "{"};
  return v;
}

}  // namespace

const Vocabulary& vocabulary() {
  static const Vocabulary v = build();
  return v;
}

}  // namespace mcpspec::fuzz
