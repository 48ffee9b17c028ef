#include "harness/util/json_schema.hpp"
#include "harness/util/json_pointer.hpp"
#include "harness/util/json_text.hpp"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <stdexcept>
#include <unordered_set>

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

// Makes a schema document safe to give valijson, which recursed until the stack overflowed on
// shapes found by libFuzzer campaigns (a server's tool outputSchema can be any of them, so a
// server could crash mcpspec; some crash optimized builds too):
//  - a "$ref" whose chain of references only leads back to itself ({"$ref": "#"});
//  - a reference that is no JSON Pointer into the document ({"$ref": "*"}), which valijson
//    resolves against this very document;
//  - a base-URI keyword beside a reference ({"id": "x", "items": {"$ref": ""}}). valijson takes
//    any "id" it can read as text for one: true, 5, {} and [] too ({"id": true, ...} was round 8).
// So "id"/"$id" keywords are dropped (only references inside the document are followed, so they
// change nothing), other references are refused, and so are chains that only lead back to
// themselves. A reference must land on a schema: valijson reads whatever it lands on as one, so
// a reference into data or into a map of names would bring back keywords this walk left alone.
// References through structure (a tree whose children $ref the root) stay valijson's business.
void prepare_for_valijson(nlohmann::json& doc) {
  // Where a node sits: a schema, a map from names to schemas (a property may be *named* "id"),
  // or data (const, enum, default, examples), which is neither walked nor changed.
  enum class Place { Schema, Names };
  auto names_keyword = [](const std::string& k) {
    return k == "properties" || k == "patternProperties" || k == "definitions" || k == "$defs" || k == "dependencies";
  };
  auto data_keyword = [](const std::string& k) { return k == "const" || k == "enum" || k == "default" || k == "examples"; };
  auto base_uri_keyword = [](const std::string& k) { return k == "id" || k == "$id"; };

  std::vector<nlohmann::json*> schemas;  // every object in a schema place
  std::unordered_set<const nlohmann::json*> is_schema;
  std::vector<std::pair<nlohmann::json*, Place>> pending{{&doc, Place::Schema}};
  while (!pending.empty()) {
    auto [node, place] = pending.back();
    pending.pop_back();
    if (node->is_array()) {
      for (auto& item : *node) pending.emplace_back(&item, place == Place::Names ? Place::Schema : place);
      continue;
    }
    if (!node->is_object()) continue;
    if (place == Place::Names) {
      for (auto& member : *node) pending.emplace_back(&member, Place::Schema);
      continue;
    }
    schemas.push_back(node);
    is_schema.insert(node);
    for (auto it = node->begin(); it != node->end(); ++it) {
      const std::string& k = it.key();
      if (data_keyword(k) || base_uri_keyword(k)) continue;
      pending.emplace_back(&it.value(), names_keyword(k) ? Place::Names : Place::Schema);
    }
  }

  auto target_of = [&doc](const nlohmann::json& node) -> const nlohmann::json* {
    auto ref = node.find("$ref");
    if (ref == node.end() || !ref->is_string()) return nullptr;
    const auto& text = ref->get_ref<const std::string&>();
    if (!text.empty() && text[0] != '#')
      throw std::runtime_error("$ref " + compact(*ref) + ": only references inside the schema (\"#/...\") are supported");
    try {
      nlohmann::json::json_pointer ptr(text.empty() ? "" : text.substr(1));
      return doc.contains(ptr) ? &doc.at(ptr) : nullptr;
    } catch (const nlohmann::json::exception&) {
      throw std::runtime_error("$ref " + compact(*ref) + " is not a JSON Pointer (\"#/...\") into the schema");
    }
  };
  for (const nlohmann::json* node : schemas) {
    if (!node->contains("$ref")) continue;
    std::vector<const nlohmann::json*> chain{node};
    for (const nlohmann::json* next = target_of(*node); next && next->is_object(); next = target_of(*next)) {
      if (!is_schema.count(next))
        throw std::runtime_error("$ref " + compact(node->at("$ref")) +
                                 " leads to a value that is not a schema (data under const, enum, default or examples, "
                                 "a map of properties or definitions, or an id)");
      if (std::find(chain.begin(), chain.end(), next) != chain.end())
        throw std::runtime_error("$ref " + compact(node->at("$ref")) + " only leads back to itself");
      chain.push_back(next);
    }
  }
  // Safe to erase now: no schema object lies inside an "id" value (they are not walked, and a
  // reference into one was refused above).
  for (nlohmann::json* node : schemas)
    for (const char* key : {"id", "$id"}) node->erase(key);
}

}  // namespace

CompiledSchema::CompiledSchema(const nlohmann::json& doc) : document_(doc), schema_(std::make_unique<valijson::Schema>()) {
  try {
    prepare_for_valijson(document_);
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
