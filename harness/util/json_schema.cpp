#include "harness/util/json_schema.hpp"

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
    std::string esc;
    for (char ch : seg) {
      if (ch == '~') esc += "~0";
      else if (ch == '/') esc += "~1";
      else esc += ch;
    }
    p += "/" + esc;
  }
  return p;
}

}  // namespace

CompiledSchema::CompiledSchema(const nlohmann::json& doc) : document_(doc), schema_(std::make_unique<valijson::Schema>()) {
  try {
    valijson::SchemaParser parser;
    valijson::adapters::NlohmannJsonAdapter adapter(document_);
    parser.populateSchema(adapter, *schema_);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("unusable JSON Schema: ") + e.what());
  }
}

CompiledSchema::~CompiledSchema() = default;
CompiledSchema::CompiledSchema(CompiledSchema&&) noexcept = default;
CompiledSchema& CompiledSchema::operator=(CompiledSchema&&) noexcept = default;

std::vector<JsonSchemaIssue> CompiledSchema::validate(const nlohmann::json& value, std::size_t max_issues) const {
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter target(value);
  std::vector<JsonSchemaIssue> out;
  try {
    if (validator.validate(*schema_, target, &results)) return out;
  } catch (const std::exception& e) {
    out.push_back({"", std::string("validation failed: ") + e.what()});
    return out;
  }
  valijson::ValidationResults::Error err;
  std::vector<std::pair<std::size_t, JsonSchemaIssue>> all;
  while (results.popError(err)) all.push_back({err.context.size(), {to_pointer(err.context), err.description}});
  // The deepest issue is usually the real one; anyOf/oneOf summaries sit higher up.
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (auto& entry : all) {
    // Not a structured binding: clang before 16 cannot capture one in the lambda below (fuzz build).
    auto& issue = entry.second;
    bool dup = std::any_of(out.begin(), out.end(), [&](const JsonSchemaIssue& o) {
      return o.pointer == issue.pointer && o.message == issue.message;
    });
    if (!dup) out.push_back(std::move(issue));
    if (out.size() >= max_issues) break;
  }
  return out;
}

}  // namespace mcpspec
