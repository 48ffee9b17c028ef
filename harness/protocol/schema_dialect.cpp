#include "harness/protocol/schema_dialect.hpp"
#include "harness/util/json_pointer.hpp"
#include "harness/jsonschema/keywords.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace mcpspec::protocol::schema_dialect {
namespace {

using nlohmann::json;

// A hostile or broken schema must not exhaust the stack of the walk below.
constexpr int kMaxDepth = 256;

constexpr std::array kUnsupported = {
    "unevaluatedProperties", "unevaluatedItems", "prefixItems", "$dynamicRef", "$dynamicAnchor",
    "$recursiveRef", "$recursiveAnchor", "dependentRequired", "dependentSchemas", "minContains",
    "maxContains", "$anchor"};

// Keywords whose value is one schema, a map of schemas, or an array of schemas.
constexpr std::array kSchemaValued = {"additionalProperties", "additionalItems", "contains",
                                      "propertyNames", "if", "then", "else", "not"};
constexpr std::array kSchemaArrays = {"allOf", "anyOf", "oneOf"};

// Siblings of $ref that carry no constraint, so draft-07 dropping them changes nothing.
constexpr std::array kAnnotations = {"description", "title", "$comment", "examples", "default",
                                     "deprecated", "readOnly", "writeOnly", "$id", "id", "$schema",
                                     "definitions", "$defs"};

using schema_keywords::contains;
using schema_keywords::kRegexFormats;
using schema_keywords::kSchemaMaps;

std::string child(const std::string& pointer, std::string_view token) { return pointer_child(pointer, token); }

std::string where(const std::string& pointer) { return pointer.empty() ? "the document root" : pointer; }

Dialect detect(const json& document, const std::string& origin, std::vector<std::string>& notes) {
  auto it = document.find("$schema");
  if (it == document.end()) {
    notes.push_back("no $schema: read as draft-07");
    return Dialect::Draft07;
  }
  if (!it->is_string()) throw std::runtime_error(origin + ": $schema must be a string");
  std::string uri = it->get<std::string>();
  while (!uri.empty() && (uri.back() == '#' || uri.back() == '/')) uri.pop_back();
  if (uri.rfind("https://", 0) == 0) uri.erase(4, 1);  // compare scheme-insensitively
  if (uri == "http://json-schema.org/draft-04/schema") return Dialect::Draft04;
  if (uri == "http://json-schema.org/draft-06/schema") return Dialect::Draft06;
  if (uri == "http://json-schema.org/draft-07/schema") return Dialect::Draft07;
  if (uri == "http://json-schema.org/draft/2019-09/schema") return Dialect::Draft2019_09;
  if (uri == "http://json-schema.org/draft/2020-12/schema") return Dialect::Draft2020_12;
  throw std::runtime_error(origin + ": unsupported $schema '" + it->get<std::string>() +
                           "' (supported: draft-04, draft-06, draft-07, 2019-09 and 2020-12 files that "
                           "use only draft-07 keywords)");
}

class Rewriter {
 public:
  Rewriter(std::string origin, Dialect dialect, std::vector<std::string>& notes)
      : origin_(std::move(origin)), dialect_(dialect), notes_(notes) {}

  void schema(json& node, const std::string& pointer, int depth) {
    if (depth > kMaxDepth) fail(pointer, "schemas are nested more than 256 levels deep");
    if (node.is_boolean()) return;
    if (!node.is_object()) fail(pointer, "expected a schema (object or boolean), found " + std::string(node.type_name()));
    for (const char* keyword : kUnsupported) {
      if (node.contains(keyword)) {
        fail(child(pointer, keyword), std::string("keyword '") + keyword +
                                          "' is not supported (mcpspec validates with draft-07 keywords only)");
      }
    }
    rename_defs(node, pointer);
    if (modern()) wrap_ref_siblings(node);
    if (auto it = node.find("$ref"); it != node.end()) reference(*it, child(pointer, "$ref"));
    if (auto it = node.find("format"); it != node.end() && it->is_string() &&
                                       contains(kRegexFormats, it->get<std::string>())) {
      note("removed format '" + it->get<std::string>() + "' (checked by std::regex in valijson)");
      node.erase(it);
    }
    for (const char* keyword : kSchemaValued) {
      if (auto it = node.find(keyword); it != node.end()) schema(*it, child(pointer, keyword), depth + 1);
    }
    for (const char* keyword : kSchemaMaps) {
      auto it = node.find(keyword);
      if (it == node.end()) continue;
      if (!it->is_object()) fail(child(pointer, keyword), std::string("'") + keyword + "' must be an object");
      for (auto& [name, sub] : it->items()) {
        // dependencies may also map to a list of property names.
        if (std::string_view(keyword) == "dependencies" && sub.is_array()) continue;
        schema(sub, child(child(pointer, keyword), name), depth + 1);
      }
    }
    for (const char* keyword : kSchemaArrays) {
      auto it = node.find(keyword);
      if (it == node.end()) continue;
      if (!it->is_array()) fail(child(pointer, keyword), std::string("'") + keyword + "' must be an array");
      for (std::size_t i = 0; i < it->size(); ++i) schema((*it)[i], child(pointer, keyword) + "/" + std::to_string(i), depth + 1);
    }
    if (auto it = node.find("items"); it != node.end()) {
      if (it->is_array()) {
        if (modern()) fail(child(pointer, "items"), "'items' as an array is not a valid 2019-09/2020-12 form");
        for (std::size_t i = 0; i < it->size(); ++i) schema((*it)[i], child(pointer, "items") + "/" + std::to_string(i), depth + 1);
      } else {
        schema(*it, child(pointer, "items"), depth + 1);
      }
    }
  }

  // Every reference must land inside the (rewritten) document.
  void check_references(const json& root) const {
    for (const auto& [target, pointer] : references_) {
      std::string fragment = target.substr(1);
      bool resolves = false;
      try {
        resolves = fragment.empty() ? true : root.contains(json::json_pointer(fragment));
      } catch (const std::exception&) {
        resolves = false;
      }
      if (!resolves) fail(pointer, "$ref '" + target + "' does not resolve inside the file");
    }
  }

 private:
  bool modern() const { return dialect_ == Dialect::Draft2019_09 || dialect_ == Dialect::Draft2020_12; }

  [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
    throw std::runtime_error(origin_ + ": at " + where(pointer) + ": " + what);
  }

  void note(const std::string& text) {
    if (std::find(notes_.begin(), notes_.end(), text) == notes_.end()) notes_.push_back(text);
  }

  void rename_defs(json& node, const std::string& pointer) {
    auto defs = node.find("$defs");
    if (defs == node.end()) return;
    if (!defs->is_object()) fail(child(pointer, "$defs"), "'$defs' must be an object");
    json moved = std::move(*defs);
    node.erase("$defs");
    json& target = node["definitions"];
    if (target.is_null()) target = json::object();
    if (!target.is_object()) fail(child(pointer, "definitions"), "'definitions' must be an object");
    for (auto& [name, sub] : moved.items()) {
      if (target.contains(name)) fail(child(child(pointer, "$defs"), name), "defined in both $defs and definitions");
      target[name] = std::move(sub);
    }
    note("renamed $defs to definitions");
  }

  void wrap_ref_siblings(json& node) {
    if (!node.contains("$ref")) return;
    json constraints = json::object();
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (it.key() != "$ref" && !contains(kAnnotations, it.key())) constraints[it.key()] = it.value();
    }
    if (constraints.empty()) return;
    for (auto& [key, value] : constraints.items()) {
      (void)value;
      node.erase(key);
    }
    json ref = {{"$ref", node["$ref"]}};
    node.erase("$ref");
    node["allOf"] = json::array({std::move(ref), std::move(constraints)});
    note("wrapped $ref siblings in allOf (2019-09/2020-12 apply them)");
  }

  void reference(json& value, const std::string& pointer) {
    if (!value.is_string()) fail(pointer, "$ref must be a string");
    std::string target = value.get<std::string>();
    if (target.empty() || target[0] != '#') {
      fail(pointer, "$ref '" + target + "' points outside the file; only local references (#/...) are supported");
    }
    if (target == "#") fail(pointer, "$ref to the document root is not supported; reference a definition instead");
    constexpr std::string_view kOld = "#/$defs/";
    if (target.rfind(kOld, 0) == 0) {
      target = "#/definitions/" + target.substr(kOld.size());
      value = target;
    }
    references_.emplace_back(target, pointer);
  }

  std::string origin_;
  Dialect dialect_;
  std::vector<std::string>& notes_;
  std::vector<std::pair<std::string, std::string>> references_;  // target, where it was found
};

}  // namespace

const char* dialect_name(Dialect d) {
  switch (d) {
    case Dialect::Draft04: return "draft-04";
    case Dialect::Draft06: return "draft-06";
    case Dialect::Draft07: return "draft-07";
    case Dialect::Draft2019_09: return "2019-09";
    case Dialect::Draft2020_12: return "2020-12";
  }
  return "unknown";
}

Prepared to_draft07(nlohmann::json document, const std::string& origin) {
  if (!document.is_object()) {
    throw std::runtime_error(origin + ": a schema file must hold a JSON object, found " +
                             std::string(document.type_name()));
  }
  Prepared out;
  out.dialect = detect(document, origin, out.notes);
  out.parse_as_draft4 = out.dialect == Dialect::Draft04;
  Rewriter rewriter(origin, out.dialect, out.notes);
  rewriter.schema(document, "", 0);
  rewriter.check_references(document);
  document["$schema"] = out.parse_as_draft4 ? "http://json-schema.org/draft-04/schema#"
                                            : "http://json-schema.org/draft-07/schema#";
  out.document = std::move(document);
  return out;
}

}  // namespace mcpspec::protocol::schema_dialect
