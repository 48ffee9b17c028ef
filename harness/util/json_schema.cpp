#include "harness/util/json_schema.hpp"
#include "harness/util/json_pointer.hpp"
#include "harness/util/json_schema_guard.hpp"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <stdexcept>

namespace mcpspec {

namespace {

// valijson reports a path as {"<root>", "[steps]", "[0]", ...}; we print JSON pointers.
std::string to_pointer(const std::vector<std::string>& context) {
  std::string p;
  for (const auto& c : context) {
    if (c == "<root>") continue;
    std::string seg = c;
    if (seg.size() >= 2 && seg.front() == '[' && seg.back() == ']') seg = seg.substr(1, seg.size() - 2);
    if (seg.size() >= 2 && seg.front() == '"' && seg.back() == '"') seg = seg.substr(1, seg.size() - 2);
    p = pointer_child(p, seg);
  }
  return p;
}

}  // namespace

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
                                                      RegexBudget* budget) const {
  RegexBudget own;
  PatternBudgetScope scope(budget ? budget : &own);
  valijson::Validator validator;
  valijson::ValidationResults results;
  check_value_within_limits(bounds_, value);  // throws: valijson would overflow the stack or misread it
  valijson::adapters::NlohmannJsonAdapter target(value);
  std::vector<JsonSchemaIssue> out;
  try {
    if (validator.validate(*schema_, target, &results)) return out;
  } catch (const SchemaBeyondLimits&) {
    throw;
  } catch (const std::exception& e) {
    out.push_back({"", std::string("validation failed: ") + e.what()});
    return out;
  }
  valijson::ValidationResults::Error err;
  std::vector<std::pair<std::size_t, JsonSchemaIssue>> all;
  while (results.popError(err)) all.push_back({err.context.size(), {to_pointer(err.context), err.description}});
  // The deepest issue is usually the real one; anyOf/oneOf summaries sit higher up.
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  // valijson follows each real issue with "Failed to validate ..." lines for every enclosing
  // property, item and combinator; they repeat what the issue below them says.
  auto is_summary = [](const JsonSchemaIssue& i) { return i.message.rfind("Failed to validate", 0) == 0; };
  auto explained_below = [&](const JsonSchemaIssue& summary) {
    return std::any_of(all.begin(), all.end(), [&](const auto& other) {
      return !is_summary(other.second) && other.second.pointer.rfind(summary.pointer, 0) == 0;
    });
  };
  for (auto& entry : all) {
    // Not a structured binding: clang before 16 cannot capture one in the lambda below (fuzz build).
    auto& issue = entry.second;
    if (is_summary(issue) && explained_below(issue)) continue;
    bool dup = std::any_of(out.begin(), out.end(), [&](const JsonSchemaIssue& o) {
      return o.pointer == issue.pointer && o.message == issue.message;
    });
    if (!dup) out.push_back(issue);  // copied: explained_below still reads `all`
    if (out.size() >= max_issues) break;
  }
  return out;
}

}  // namespace mcpspec
