#pragma once
// What the structure-aware mutator knows about MCP and mcpspec's scenario language: method names
// (read from the embedded harness/protocol/schemas/<version>/methods.json, so a new protocol
// version is picked up without touching the fuzzer), member names, boundary numbers, ids, and the
// JSON Schema and regex vocabulary the matcher and scenario targets reach through valijson and
// std::regex (without them, campaigns reached such code only by byte mutation, hours in).
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace mcpspec::fuzz {

struct Vocabulary {
  std::vector<std::string> methods;          // every method of every built-in version, deduplicated
  std::vector<std::string> member_names;     // envelope, params and result member names
  std::vector<std::string> matcher_operators;// "$regex", "$type", ... (scenario targets)
  std::vector<nlohmann::json> boundary_numbers;
  std::vector<nlohmann::json> odd_ids;       // ids that test how a peer keys its requests
  std::vector<std::string> odd_strings;      // escapes, placeholders, regex bombs, long text
  // JSON Schema keywords of drafts 4 to 2020-12, by the shape of value each takes, for schemas
  // built inside matchers ($conformsTo, $schema) and tool inputSchema/outputSchema.
  std::vector<std::string> schema_subschema;   // "not", "if", "items", "additionalProperties" ...
  std::vector<std::string> schema_schema_list; // "allOf", "anyOf", "oneOf", "prefixItems"
  std::vector<std::string> schema_schema_map;  // "properties", "patternProperties", "$defs" ...
  std::vector<std::string> schema_number;      // "minimum", "multipleOf", "maxLength" ...
  std::vector<std::string> schema_other;       // "type", "enum", "const", "required", "pattern", "$ref" ...
  std::vector<std::string> schema_formats;     // "date-time", "uri", "regex" ...
  // Pieces of ECMAScript regex syntax ($regex, "pattern", patternProperties keys): atoms, classes,
  // anchors, groups, lookarounds, backreferences and quantifiers, joined into patterns.
  std::vector<std::string> regex_fragments;
};

// Built once; never throws (a missing resource leaves that list with only the fixed entries).
const Vocabulary& vocabulary();

}  // namespace mcpspec::fuzz
