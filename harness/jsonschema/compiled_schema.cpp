#include "harness/jsonschema/compiled_schema.hpp"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>

#include <stdexcept>

namespace mcpspec {

CompiledSchema::CompiledSchema(const nlohmann::json& doc) : document_(doc), schema_(std::make_unique<valijson::Schema>()) {
  try {
    bounds_ = prepare_schema_for_valijson(document_);
    valijson::SchemaParser parser;
    add_guarded_keywords(parser);
    valijson::adapters::NlohmannJsonAdapter adapter(document_);
    parser.populateSchema(adapter, *schema_);
  } catch (const SchemaBeyondLimits&) {
    throw;
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("unusable JSON Schema: ") + e.what());
  }
}

CompiledSchema::~CompiledSchema() = default;
CompiledSchema::CompiledSchema(CompiledSchema&&) noexcept = default;
CompiledSchema& CompiledSchema::operator=(CompiledSchema&&) noexcept = default;

std::vector<JsonSchemaIssue> CompiledSchema::validate(const nlohmann::json& value, std::size_t max_issues,
                                                      ValidationBudget* budget) const {
  ValidationBudget own;
  SchemaCheck check = check_against(*schema_, &bounds_, value, budget ? *budget : own, max_issues);
  if (!check.unchecked.empty()) throw SchemaBeyondLimits(check.unchecked);
  return std::move(check.issues);
}

}  // namespace mcpspec
