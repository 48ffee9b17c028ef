#include "harness/jsonschema/check.hpp"

#include "harness/util/json_pointer.hpp"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <charconv>
#include <set>
#include <string_view>
#include <utility>

namespace mcpspec {

using nlohmann::json;

namespace {

// ---------------------------------------------------------------------------------------------
// valijson's error list as issues a person can act on.

struct RawError {
  std::vector<std::string> tokens;  // path below the checked value
  std::string message;
};

std::string to_pointer(const std::vector<std::string>& tokens) {
  std::string out;
  for (const auto& t : tokens) out += "/" + pointer_token(t);
  return out;
}

const json* locate(const json& root, const std::vector<std::string>& tokens) {
  const json* node = &root;
  for (const auto& t : tokens) {
    if (node->is_object()) {
      auto it = node->find(t);
      if (it == node->end()) return nullptr;
      node = &*it;
    } else if (node->is_array()) {
      std::size_t index = 0;
      auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), index);
      if (ec != std::errc() || end != t.data() + t.size() || index >= node->size()) return nullptr;
      node = &(*node)[index];
    } else {
      return nullptr;
    }
  }
  return node;
}

std::string shown(const json* value) {
  if (value == nullptr) return "nothing";
  std::string text = value->dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

std::string type_of(const json* value) {
  if (value == nullptr) return "nothing";
  if (value->is_number_integer()) return "integer";
  if (value->is_number_float()) return "number";
  return value->type_name();
}

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

bool is_within(const std::vector<std::string>& path, const std::vector<std::string>& base) {
  return path.size() >= base.size() && std::equal(base.begin(), base.end(), path.begin());
}

// The quoted name in "...property name 'x'." or the number in "...item #3 in array.".
std::string wrapped_token(const std::string& message) {
  if (auto open = message.find('\''); open != std::string::npos) {
    auto close = message.rfind('\'');
    if (close > open) return message.substr(open + 1, close - open - 1);
  }
  if (auto hash = message.find('#'); hash != std::string::npos) {
    auto end = message.find(' ', hash);
    return message.substr(hash + 1, end == std::string::npos ? std::string::npos : end - hash - 1);
  }
  return {};
}

// valijson follows each real error with "Failed to validate ..." lines for every enclosing
// property, item and combinator: they only repeat what the error below them says.
bool is_wrapper(const std::string& m) {
  return starts_with(m, "Failed to validate against schema associated with property name") ||
         starts_with(m, "Failed to validate item #") || starts_with(m, "Failed to validate against child schema") ||
         starts_with(m, "Failed to validate against a conditional schema") ||
         starts_with(m, "Failed to validate against additional properties schema") ||
         starts_with(m, "Failed to validate against dependent schema");
}

std::vector<JsonSchemaIssue> readable_issues(const valijson::ValidationResults& results, const json& value,
                                             const std::string& prefix, std::size_t max_issues) {
  std::vector<RawError> raw;
  for (const auto& e : results) {
    RawError r;
    for (std::size_t i = 1; i < e.context.size(); ++i) {  // [0] is "<root>"
      std::string c = e.context[i];
      if (c.size() >= 2 && c.front() == '[' && c.back() == ']') c = c.substr(1, c.size() - 2);
      if (c.size() >= 2 && c.front() == '"' && c.back() == '"') c = c.substr(1, c.size() - 2);
      r.tokens.push_back(std::move(c));
    }
    r.message = e.description;
    raw.push_back(std::move(r));
  }
  // Paths of the specific errors, sorted, so that "is there one below this wrapper" is a lookup in
  // log time (a failing value may produce many thousands of errors).
  std::set<std::vector<std::string>> specific;
  for (const auto& r : raw)
    if (!is_wrapper(r.message)) specific.insert(r.tokens);
  auto has_specific_within = [&](const std::vector<std::string>& base) {
    auto it = specific.lower_bound(base);
    return it != specific.end() && is_within(*it, base);
  };

  std::vector<std::pair<std::vector<std::string>, std::string>> kept;  // path, readable message
  for (const auto& r : raw) {
    const std::string& m = r.message;
    const json* at = locate(value, r.tokens);
    if (starts_with(m, "Failed to validate against schema associated with property name")) {
      std::vector<std::string> path = r.tokens;
      path.push_back(wrapped_token(m));
      // With nothing more specific below it, the member's schema is `false`: it must not be there.
      if (!has_specific_within(path)) kept.emplace_back(path, "must not be present here");
    } else if (starts_with(m, "Failed to validate item #")) {
      std::vector<std::string> path = r.tokens;
      path.push_back(wrapped_token(m));
      if (!has_specific_within(path)) kept.emplace_back(path, "this item is not allowed here");
    } else if (is_wrapper(m)) {
      if (!has_specific_within(r.tokens)) kept.emplace_back(r.tokens, "does not match its schema");
    } else if (m == "Value type not permitted by 'type' constraint.") {
      kept.emplace_back(r.tokens, "has the wrong type (found " + type_of(at) + ")");
    } else if (m == "Failed to match expected value set by 'const' constraint.") {
      kept.emplace_back(r.tokens, "does not have the required fixed value (found " + shown(at) + ")");
    } else if (m == "Failed to match against any enum values.") {
      kept.emplace_back(r.tokens, "is not one of the allowed values (found " + shown(at) + ")");
    } else if (m == "Failed to validate against any schemas allowed by anyOf constraint.") {
      kept.emplace_back(r.tokens, "matches none of the allowed forms");
    } else if (m == "Target should not validate against schema specified in 'not' constraint.") {
      kept.emplace_back(r.tokens, "is not allowed here (found " + shown(at) + ")");
    } else if (starts_with(m, "Missing required property")) {
      kept.emplace_back(r.tokens, "missing required member '" + wrapped_token(m) + "'");
    } else {
      kept.emplace_back(r.tokens, m);
    }
  }
  // Most specific (deepest) first; valijson's order is kept among equals.
  std::stable_sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  std::vector<JsonSchemaIssue> out;
  std::set<std::pair<std::string, std::string>> seen;
  for (auto& [path, message] : kept) {
    std::string pointer = prefix + to_pointer(path);
    if (!seen.emplace(pointer, message).second) continue;
    out.push_back({std::move(pointer), std::move(message)});
    if (out.size() >= max_issues) break;
  }
  return out;
}

}  // namespace

SchemaCheck check_against(const valijson::Subschema& schema, const SchemaBounds* bounds, const json& value,
                          ValidationBudget& budget, std::size_t max_issues, const std::string& prefix) {
  SchemaCheck out;
  valijson::Validator validator;
  valijson::adapters::NlohmannJsonAdapter target(value);
  ValueCost cost;
  try {
    // A schema that is not ours could nest schemas per level deeply enough to overflow the stack
    // on a deep value, or apply so many per level that checking one takes minutes.
    if (bounds != nullptr) cost = check_value_within_limits(*bounds, value);
    if (cost.decide > budget.schema_work)
      throw SchemaBeyondLimits("not checked: this check has used up its schema work (the sum over all the values it "
                               "checks against schemas is limited)");
    budget.schema_work -= cost.decide;
    PatternBudgetScope scope(&budget.patterns);
    if (validator.validate(schema, target, nullptr)) return out;  // fast path: no error bookkeeping
  } catch (const SchemaBeyondLimits& e) {
    out.unchecked = e.what();
    return out;
  } catch (const std::exception& e) {
    out.conforms = false;
    out.issues.push_back({prefix, std::string("the schema could not be applied: ") + e.what()});
    return out;
  }
  // It does not conform, whatever follows. Saying why may cost more than deciding did (valijson
  // copies the errors under a failing anyOf/oneOf/if up one level each) or run patterns the first
  // pass never reached; past the budget the verdict stands without the details.
  out.conforms = false;
  auto undetailed = [&](const std::string& why) {
    out.issues.push_back({prefix, "does not conform (which parts do not is not worked out: " + why + ")"});
    return out;
  };
  if (cost.explain > budget.schema_work)
    return undetailed("that could take " + std::to_string(cost.explain) +
                      (cost.explain >= kMaxSchemaWork ? " or more" : "") +
                      " steps of error bookkeeping, more than this check has left");
  budget.schema_work -= cost.explain;
  valijson::ValidationResults results;
  try {
    PatternBudgetScope scope(&budget.patterns);
    validator.validate(schema, target, &results);
  } catch (const std::exception& e) {
    return undetailed(e.what());
  }
  out.issues = readable_issues(results, value, prefix, max_issues);
  if (out.issues.empty()) out.issues.push_back({prefix, "does not conform to its schema"});
  return out;
}

}  // namespace mcpspec
