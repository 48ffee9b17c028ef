#pragma once
// A compiled draft-07 JSON Schema (valijson) with readable issues: "/steps/3/expect_exit: ...".
// Compiled once, then validated from any thread.
#include "harness/util/json_schema_guard.hpp"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace valijson {
class Schema;
}

namespace mcpspec {

struct JsonSchemaIssue {
  std::string pointer;  // JSON pointer into the validated value ("" = the value itself)
  std::string message;
};

class CompiledSchema {
 public:
  // Throws SchemaBeyondLimits when mcpspec cannot check against the schema (see
  // json_schema_guard.hpp), std::runtime_error when the schema itself is broken.
  explicit CompiledSchema(const nlohmann::json& schema_document);
  ~CompiledSchema();
  CompiledSchema(CompiledSchema&&) noexcept;
  CompiledSchema& operator=(CompiledSchema&&) noexcept;

  // Issues, most specific (deepest pointer) first; at most `max_issues`. Throws SchemaBeyondLimits
  // when the value is nested too deep for this schema to be checked without overflowing the stack,
  // or a "pattern" cannot be run on one of its strings (or the regex budget is spent).
  // "pattern" checks draw on `budget`, or on a budget of their own for this call.
  std::vector<JsonSchemaIssue> validate(const nlohmann::json& value, std::size_t max_issues = 8,
                                        RegexBudget* budget = nullptr) const;

 private:
  nlohmann::json document_;  // valijson keeps references into the document it parsed
  std::unique_ptr<valijson::Schema> schema_;
  SchemaBounds bounds_;
};

}  // namespace mcpspec
