#pragma once
// A compiled draft-07 JSON Schema (valijson) with readable issues: "/steps/3/expect_exit: ...".
// Compiled once, then validated from any thread. Checks go through check_against (check.hpp), as
// the protocol message schemas do.
#include "harness/jsonschema/check.hpp"
#include "harness/jsonschema/guard.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace valijson {
class Schema;
}

namespace mcpspec {

class CompiledSchema {
 public:
  // Throws SchemaBeyondLimits when mcpspec cannot check against the schema (see
  // json_schema_guard.hpp), std::runtime_error when the schema itself is broken.
  explicit CompiledSchema(const nlohmann::json& schema_document);
  ~CompiledSchema();
  CompiledSchema(CompiledSchema&&) noexcept;
  CompiledSchema& operator=(CompiledSchema&&) noexcept;

  // Issues, most specific (deepest pointer) first; at most `max_issues`. Throws SchemaBeyondLimits
  // when mcpspec cannot decide whether the value conforms: it is nested too deep for this schema to
  // be checked without overflowing the stack, checking it would take too much work
  // (check_value_within_limits), a "pattern" cannot be run on one of its strings, or `budget` is
  // spent. Once a value is known not to conform, details that would take too much work (or a
  // pattern mcpspec cannot run) to work out are left out: one issue says so.
  // Draws on `budget`, or on a budget of its own for this call.
  std::vector<JsonSchemaIssue> validate(const nlohmann::json& value, std::size_t max_issues = 8,
                                        ValidationBudget* budget = nullptr) const;

 private:
  nlohmann::json document_;  // valijson keeps references into the document it parsed
  std::unique_ptr<valijson::Schema> schema_;
  SchemaBounds bounds_;
};

}  // namespace mcpspec
