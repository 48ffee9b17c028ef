#include "harness/util/json_schema.hpp"
#include "harness/util/json_pointer.hpp"
#include "harness/util/json_schema_guard.hpp"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <set>
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

// valijson's errors as issues: the deepest first, without the summaries that only repeat them.
std::vector<JsonSchemaIssue> readable_issues(valijson::ValidationResults& results, std::size_t max_issues) {
  valijson::ValidationResults::Error err;
  std::vector<std::pair<std::size_t, JsonSchemaIssue>> all;
  while (results.popError(err)) all.push_back({err.context.size(), {to_pointer(err.context), err.description}});
  // The deepest issue is usually the real one; anyOf/oneOf summaries sit higher up.
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  // valijson follows each real issue with "Failed to validate ..." lines for every enclosing
  // property, item and combinator; they repeat what the issue below them says. Sorted pointers of
  // the real issues find one below a summary's pointer in log time (there may be many thousands).
  auto is_summary = [](const JsonSchemaIssue& i) { return i.message.rfind("Failed to validate", 0) == 0; };
  std::set<std::string> real;
  for (const auto& entry : all)
    if (!is_summary(entry.second)) real.insert(entry.second.pointer);
  auto explained_below = [&](const JsonSchemaIssue& summary) {
    auto below = real.lower_bound(summary.pointer);
    return below != real.end() && below->rfind(summary.pointer, 0) == 0;
  };
  std::vector<JsonSchemaIssue> out;
  for (auto& entry : all) {
    // Not a structured binding: clang before 16 cannot capture one in the lambda below (fuzz build).
    auto& issue = entry.second;
    if (is_summary(issue) && explained_below(issue)) continue;
    bool dup = std::any_of(out.begin(), out.end(), [&](const JsonSchemaIssue& o) {
      return o.pointer == issue.pointer && o.message == issue.message;
    });
    if (!dup) out.push_back(std::move(issue));
    if (out.size() >= max_issues) break;
  }
  return out;
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
                                                      ValidationBudget* budget) const {
  ValidationBudget own;
  ValidationBudget& spend = budget ? *budget : own;
  PatternBudgetScope scope(&spend.patterns);
  // Throws: valijson would overflow the stack, misread a number, or take too long.
  const ValueCost cost = check_value_within_limits(bounds_, value);
  if (cost.decide > spend.schema_work)
    throw SchemaBeyondLimits("not checked: this check has used up its schema work (the sum over all the values it "
                             "checks against schemas is limited)");
  spend.schema_work -= cost.decide;
  valijson::Validator validator;
  valijson::adapters::NlohmannJsonAdapter target(value);
  // First without collecting errors: valijson then stops at the first failure, and copies nothing.
  try {
    if (validator.validate(*schema_, target, nullptr)) return {};
  } catch (const SchemaBeyondLimits&) {
    throw;
  } catch (const std::exception& e) {
    return {{"", std::string("validation failed: ") + e.what()}};
  }
  // It does not conform, whatever follows.
  auto undetailed = [](const std::string& why) {
    return std::vector<JsonSchemaIssue>{{"", "does not conform (which parts do not is not worked out: " + why + ")"}};
  };
  if (cost.explain > spend.schema_work)
    return undetailed("that could take " + std::to_string(cost.explain) +
                      (cost.explain >= kMaxSchemaWork ? " or more" : "") +
                      " steps of error bookkeeping, more than this check has left");
  spend.schema_work -= cost.explain;
  valijson::ValidationResults results;
  try {
    validator.validate(*schema_, target, &results);
  } catch (const std::exception& e) {
    return undetailed(e.what());
  }
  return readable_issues(results, max_issues);
}

}  // namespace mcpspec
