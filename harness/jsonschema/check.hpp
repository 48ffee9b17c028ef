#pragma once
// The one way mcpspec checks a value against a compiled JSON Schema (valijson), whoever asks: the
// scenario loader, a `$conformsTo` matcher, the protocol message schemas and a user's `--schema`
// file. One issue type, one wording and one work budget, so the same failure reads the same
// wherever it is found.
//
// A check runs in two passes: first without collecting errors (valijson then stops at the first
// failure and copies nothing), then, only for a value that does not conform and only when the
// budget allows, again to say where and why.
#include "harness/jsonschema/guard.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace valijson {
class Subschema;
}

namespace mcpspec {

// What one check (one match(), one message) may spend on schema validation, over all the schemas
// it applies: "pattern" work, and schema applications plus error bookkeeping (ValueCost).
// Not shared across threads.
struct ValidationBudget {
  RegexBudget patterns;
  std::uint64_t schema_work = kMaxSchemaWork;
};

struct JsonSchemaIssue {
  std::string pointer;  // JSON pointer into the checked value, after the caller's prefix ("" = the value)
  std::string message;  // readable: "missing required member 'name'", "has the wrong type (found string)"
};

struct SchemaCheck {
  bool conforms = true;
  std::vector<JsonSchemaIssue> issues;  // when it does not: most specific (deepest) first
  // Non-empty when mcpspec could not decide (SchemaBeyondLimits): the value is then neither
  // conforming nor not, and `conforms` stays true. A caller must not report it as a failure.
  std::string unchecked;
};

// Checks `value` against `schema`. `bounds` are the schema's (prepare_schema_for_valijson); null
// for a trusted schema of our own, fuzzed at every depth the peer reader accepts, whose cost is
// not worked out per value. Issue pointers start with `prefix`. At most `max_issues` issues.
SchemaCheck check_against(const valijson::Subschema& schema, const SchemaBounds* bounds, const nlohmann::json& value,
                          ValidationBudget& budget, std::size_t max_issues = 8, const std::string& prefix = "");

}  // namespace mcpspec
