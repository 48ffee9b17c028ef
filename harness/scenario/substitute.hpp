#pragma once
// ${name} substitution in scenario values, and generation of tool arguments from a JSON Schema.
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace mcpspec::scenario {

class SubstitutionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Replaces ${path} in every string of `value` (keys untouched) using `vars` (a JSON object).
// - A string that is exactly "${path}" becomes the referenced JSON value (type kept).
// - "${path}" inside a longer string is replaced by the value's text (strings as-is, other values
//   as compact JSON).
// - path is dot-separated: "init.capabilities.tools", array indices as numbers "tools.0.name".
// - "$${" stands for a literal "${".
// - {"$generate": {...}} objects are replaced by generate_arguments(...) after substituting their
//   own contents (so "schema": "${tool.inputSchema}" works).
// - {"$for_each_key": {"of": OBJECT, "value": V}} objects become an object mapping every key of
//   OBJECT (after substitution, so "of": "${poll.result.inputRequests}" works) to V, substituted
//   per key with ${each.key} and ${each.value} set to that member of OBJECT.
// An unknown path or a malformed reference throws SubstitutionError naming the path.
// Operator objects of matchers (keys starting with '$') are left alone except $generate and
// $for_each_key, so the
// same function can prepare both messages and matchers.
nlohmann::json substitute(const nlohmann::json& value, const nlohmann::json& vars);

// Builds arguments for a tool from its inputSchema (draft-07/2020-12 subset: type, properties,
// required, enum, const, default, minimum/maximum, minLength/maxLength, items, minItems, anyOf/oneOf
// first branch). Modes:
//   "minimal"          only required properties, each a valid value
//   "full"             every property with a valid value
//   "wrong-type"       all required present, the first required (or first) property of the wrong type
//   "missing-required" minimal minus the first required property (returns minimal when none required)
// Deterministic: same schema and mode, same output. Throws SubstitutionError on a schema that is
// not an object or an unknown mode.
nlohmann::json generate_arguments(const nlohmann::json& schema, const std::string& mode);

}  // namespace mcpspec::scenario
