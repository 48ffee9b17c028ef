#include "harness/protocol/schema_registry.hpp"
#include "harness/util/json_pointer.hpp"

#include "harness/protocol/schema_dialect.hpp"
#include "harness/util/json_schema_guard.hpp"
#include "harness/util/resources.hpp"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/constraints/concrete_constraints.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace mcpspec::protocol {

using nlohmann::json;

namespace {

constexpr std::string_view kSchemaDir = "harness/protocol/schemas/";
constexpr std::string_view kSchemaFile = "/messages.schema.json";
constexpr std::string_view kMethodsFile = "/methods.json";

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};
template <typename V>
using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

// Definition names used to pick the envelope of each kind of message. Ours and the official
// files name them differently; a user file is searched for each candidate in turn.
struct EnvelopeNames {
  std::string request, notification, result_response, error_response, any;
};

struct MethodEntry {
  MethodInfo info;
  std::string message_def;   // the whole request/notification (ours include the envelope)
  std::string task_result;   // result when the request ran as a task (2025-11-25), or ""
};

}  // namespace

struct SchemaRegistry::VersionData {
  std::string version;
  std::string origin;                // "built-in" or the file path
  bool builtin = false;
  bool batches = false;              // built-in: the version defines batches; user file: let it decide
  bool message_defs_have_envelope = false;
  std::vector<std::string> notes;
  json document;                     // kept alive alongside the compiled schema it was read from
  SchemaBounds bounds;               // how deep valijson may recurse on it (checked for user files)
  std::unique_ptr<valijson::Schema> schema;
  StringMap<const valijson::Subschema*> definitions;
  std::vector<std::string> names;    // sorted
  StringMap<MethodEntry> methods;
  EnvelopeNames envelope;

  const valijson::Subschema* definition(std::string_view name) const {
    auto it = definitions.find(name);
    return it == definitions.end() ? nullptr : it->second;
  }
  const MethodEntry* method(std::string_view name) const {
    auto it = methods.find(name);
    return it == methods.end() ? nullptr : &it->second;
  }
};

namespace {

using VersionData = SchemaRegistry::VersionData;

// ---------------------------------------------------------------------------------------------
// Compiling: one valijson parse per version. The root gets an anyOf that references every
// definition, so each definition is parsed once and its Subschema can be looked up by name.

void compile(VersionData& vd, json document, bool draft4) {
  auto defs = document.find("definitions");
  if (defs == document.end() || !defs->is_object() || defs->empty()) {
    throw std::runtime_error(vd.origin + ": no definitions found (expected a 'definitions' or '$defs' object)");
  }
  json refs = json::array();
  for (const auto& item : defs->items()) {
    vd.names.push_back(item.key());
    refs.push_back({{"$ref", "#/definitions/" + pointer_token(item.key())}});
  }
  // Root constraints are never used for validation; only a root $ref would hide the anyOf.
  document.erase("$ref");
  document["anyOf"] = std::move(refs);

  vd.schema = std::make_unique<valijson::Schema>();
  valijson::SchemaParser parser(draft4 ? valijson::SchemaParser::kDraft4 : valijson::SchemaParser::kDraft7);
  add_guarded_keywords(parser);
  valijson::adapters::NlohmannJsonAdapter adapter(document);
  try {
    // A schema file from the user could make valijson recurse until the stack overflows (a $ref
    // cycle, a combinator applying a definition to itself): refused with the reason. Our own
    // schemas are fuzzed and their bounds never consulted: not walked again at every start.
    if (!vd.builtin) vd.bounds = prepare_schema_for_valijson(document, SchemaEntry::Any);
    parser.populateSchema(adapter, *vd.schema);
  } catch (const std::exception& e) {
    throw std::runtime_error(vd.origin + ": the schema cannot be compiled: " + e.what());
  }

  const valijson::constraints::AnyOfConstraint* all = nullptr;
  valijson::Subschema::ApplyFunction find_any_of = [&](const valijson::constraints::Constraint& c) {
    if (auto* any = dynamic_cast<const valijson::constraints::AnyOfConstraint*>(&c)) all = any;
    return true;
  };
  vd.schema->apply(find_any_of);
  if (all == nullptr) throw std::logic_error(vd.origin + ": compiled schema lost its definition index");
  all->applyToSubschemas([&](unsigned index, const valijson::Subschema* sub) {
    if (index < vd.names.size()) vd.definitions.emplace(vd.names[index], sub);
    return true;
  });
  if (vd.definitions.size() != vd.names.size()) {
    throw std::logic_error(vd.origin + ": compiled schema does not match its definitions");
  }
  std::sort(vd.names.begin(), vd.names.end());
  document.erase("anyOf");
  vd.document = std::move(document);
}

// ---------------------------------------------------------------------------------------------
// Built-in schemas

std::string text_or_empty(const json& value) { return value.is_string() ? value.get<std::string>() : std::string(); }

std::unique_ptr<VersionData> load_builtin(const std::string& version) {
  auto vd = std::make_unique<VersionData>();
  vd->version = version;
  vd->origin = "built-in schemas for " + version;
  vd->builtin = true;
  vd->message_defs_have_envelope = true;
  vd->envelope = {"RpcRequest", "RpcNotification", "RpcResultResponse", "RpcErrorResponse", "RpcSingleMessage"};

  const std::string base = std::string(kSchemaDir) + version;
  auto schema_text = resources::find(base + std::string(kSchemaFile));
  auto methods_text = resources::find(base + std::string(kMethodsFile));
  if (!schema_text || !methods_text) throw std::logic_error(vd->origin + ": embedded files are missing");
  json schema_doc, methods_doc;
  try {
    schema_doc = json::parse(*schema_text);
    methods_doc = json::parse(*methods_text);
  } catch (const json::exception& e) {
    throw std::logic_error(vd->origin + ": embedded JSON is corrupt: " + e.what());
  }
  compile(*vd, std::move(schema_doc), false);
  vd->batches = vd->definition("RpcBatch") != nullptr;

  for (const auto& [name, entry] : methods_doc.at("methods").items()) {
    MethodEntry m;
    m.info = {name, text_or_empty(entry.at("from")), text_or_empty(entry.at("kind")),
              text_or_empty(entry.at("params")), text_or_empty(entry.at("result")),
              text_or_empty(entry.at("capability"))};
    m.message_def = text_or_empty(entry.at("message"));
    m.task_result = text_or_empty(entry.value("taskResult", json()));
    for (const std::string* def : {&m.message_def, &m.info.params, &m.info.result, &m.task_result}) {
      if (!def->empty() && vd->definition(*def) == nullptr) {
        throw std::logic_error(vd->origin + ": method " + name + " names missing definition " + *def);
      }
    }
    vd->methods.emplace(name, std::move(m));
  }
  return vd;
}

std::vector<std::string> builtin_versions() {
  std::set<std::string> found;
  for (std::string_view path : resources::list(kSchemaDir)) {
    if (path.size() <= kSchemaDir.size() + kSchemaFile.size()) continue;
    if (path.substr(path.size() - kSchemaFile.size()) != kSchemaFile) continue;
    std::string_view version = path.substr(kSchemaDir.size(), path.size() - kSchemaDir.size() - kSchemaFile.size());
    if (version.find('/') == std::string_view::npos) found.emplace(version);
  }
  return {found.begin(), found.end()};
}

// ---------------------------------------------------------------------------------------------
// User files: definitions are picked by the official names; methods are read from the file.

const json* member(const json& node, std::string_view key) {
  if (!node.is_object()) return nullptr;
  auto it = node.find(key);
  return it == node.end() ? nullptr : &*it;
}

std::string ref_name(const json& node) {
  const json* ref = member(node, "$ref");
  if (ref == nullptr || !ref->is_string()) return {};
  const auto& text = ref->get_ref<const std::string&>();
  constexpr std::string_view kPrefix = "#/definitions/";
  return text.rfind(kPrefix, 0) == 0 ? text.substr(kPrefix.size()) : std::string();
}

// The method a request/notification definition fixes (properties.method.const), looking one level
// into allOf as our own files compose the envelope that way.
std::string method_const(const json& def, int depth = 0) {
  if (const json* props = member(def, "properties")) {
    if (const json* method = member(*props, "method")) {
      if (const json* c = member(*method, "const"); c && c->is_string()) return c->get<std::string>();
      if (const json* e = member(*method, "enum"); e && e->is_array() && e->size() == 1 && (*e)[0].is_string()) {
        return (*e)[0].get<std::string>();
      }
    }
  }
  if (depth == 0) {
    if (const json* all = member(def, "allOf"); all && all->is_array()) {
      for (const auto& part : *all) {
        std::string found = method_const(part, 1);
        if (!found.empty()) return found;
      }
    }
  }
  return {};
}

std::string params_ref(const json& def, int depth = 0) {
  if (const json* props = member(def, "properties")) {
    if (const json* params = member(*props, "params")) {
      std::string name = ref_name(*params);
      if (!name.empty()) return name;
    }
  }
  if (depth == 0) {
    if (const json* all = member(def, "allOf"); all && all->is_array()) {
      for (const auto& part : *all) {
        std::string found = params_ref(part, 1);
        if (!found.empty()) return found;
      }
    }
  }
  return {};
}

// The references at the ends of an if/then/else chain (how our own files write a tagged union).
void branch_targets(const json& node, std::vector<std::string>& out, int depth = 0) {
  if (depth > 256) return;
  if (auto name = ref_name(node); !name.empty()) {
    out.push_back(name);
    return;
  }
  for (const char* key : {"then", "else"}) {
    if (const json* branch = member(node, key)) branch_targets(*branch, out, depth + 1);
  }
}

// Definitions a union lists: anyOf/oneOf members (the official files), or the branches of an
// if/then/else dispatch (ours).
std::vector<std::string> union_members(const json& def) {
  std::vector<std::string> out;
  for (const char* key : {"anyOf", "oneOf"}) {
    if (const json* list = member(def, key); list && list->is_array()) {
      for (const auto& item : *list) {
        if (auto name = ref_name(item); !name.empty()) out.push_back(name);
      }
    }
  }
  if (const json* all = member(def, "allOf"); all && all->is_array()) {
    for (const auto& item : *all) branch_targets(item, out);
  }
  if (def.is_object() && !def.contains("$ref")) branch_targets(def, out);
  return out;
}

std::string first_present(const VersionData& vd, std::initializer_list<const char*> candidates) {
  for (const char* name : candidates) {
    if (vd.definition(name) != nullptr) return name;
  }
  return {};
}

void pick_envelope(VersionData& vd) {
  vd.envelope.any = first_present(vd, {"JSONRPCMessage", "Message"});
  if (vd.envelope.any.empty()) {
    throw std::runtime_error(vd.origin + ": no 'JSONRPCMessage' definition; mcpspec picks definitions by the "
                             "official names (JSONRPCMessage, JSONRPCRequest, ClientRequest, CallToolResult, ...), "
                             "see docs/schemas.md");
  }
  auto or_any = [&](std::string name) { return name.empty() ? vd.envelope.any : name; };
  vd.envelope.request = or_any(first_present(vd, {"JSONRPCRequest", "RpcRequest"}));
  vd.envelope.notification = or_any(first_present(vd, {"JSONRPCNotification", "RpcNotification"}));
  vd.envelope.result_response = or_any(first_present(vd, {"JSONRPCResultResponse", "JSONRPCResponse", "RpcResultResponse"}));
  vd.envelope.error_response = or_any(first_present(vd, {"JSONRPCErrorResponse", "JSONRPCError", "RpcErrorResponse"}));
}

// `ours` is the built-in data of the same version, when mcpspec knows that version.
void scan_methods(VersionData& vd, const VersionData* ours_vd) {
  const json& defs = vd.document.at("definitions");
  std::map<std::string, std::string> def_of_method;
  for (const auto& item : defs.items()) {
    std::string method = method_const(item.value());
    if (method.empty()) continue;
    // Prefer XxxRequest / XxxNotification over other definitions fixing the same method.
    auto it = def_of_method.find(method);
    const std::string& name = item.key();
    bool preferred = name.ends_with("Request") || name.ends_with("Notification");
    if (it == def_of_method.end() || preferred) def_of_method[method] = name;
  }
  struct Seen { bool client = false, server = false, request = false, notification = false; };
  std::map<std::string, Seen> seen;
  auto note_union = [&](const char* union_name, bool client, bool request) {
    const json* def = member(defs, union_name);
    if (def == nullptr) return;
    for (const auto& name : union_members(*def)) {
      const json* target = member(defs, name);
      if (target == nullptr) continue;
      std::string method = method_const(*target);
      if (method.empty()) continue;
      Seen& s = seen[method];
      (client ? s.client : s.server) = true;
      (request ? s.request : s.notification) = true;
    }
  };
  note_union("ClientRequest", true, true);
  note_union("ServerRequest", false, true);
  note_union("ClientNotification", true, false);
  note_union("ServerNotification", false, false);

  for (const auto& [method, def_name] : def_of_method) {
    MethodEntry m;
    m.message_def = def_name;
    const Seen s = seen[method];
    m.info.name = method;
    m.info.from = s.client == s.server ? "both" : (s.client ? "client" : "server");
    if (s.request != s.notification) {
      m.info.kind = s.request ? "request" : "notification";
    } else {
      m.info.kind = def_name.ends_with("Notification") ? "notification" : "request";
    }
    m.info.params = params_ref(defs.at(def_name));
    const MethodInfo* ours = nullptr;
    if (ours_vd != nullptr) {
      if (const MethodEntry* e = ours_vd->method(method)) ours = &e->info;
    }
    if (m.info.kind == "request") {
      if (ours && vd.definition(ours->result) != nullptr) {
        m.info.result = ours->result;
      } else if (def_name.ends_with("Request") &&
                 vd.definition(def_name.substr(0, def_name.size() - 7) + "Result") != nullptr) {
        m.info.result = def_name.substr(0, def_name.size() - 7) + "Result";
      } else if (vd.definition("Result") != nullptr) {
        m.info.result = "Result";
      }
      // Which methods may run as tasks is our knowledge; the user file supplies the shape.
      const MethodEntry* own = ours_vd == nullptr ? nullptr : ours_vd->method(method);
      if (own != nullptr && !own->task_result.empty() && vd.definition(own->task_result) != nullptr) {
        m.task_result = own->task_result;
      }
    }
    if (ours) m.info.capability = ours->capability;
    vd.methods.emplace(method, std::move(m));
  }
}

// ---------------------------------------------------------------------------------------------
// Turning valijson's error list into issues a person can act on.

struct RawError {
  std::vector<std::string> tokens;  // path below the validated value
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

void append_issues(const valijson::ValidationResults& results, const json& value, const std::string& prefix,
                   std::vector<SchemaIssue>& out) {
  std::vector<RawError> raw;
  for (const auto& e : results) {
    RawError r;
    for (std::size_t i = 1; i < e.context.size(); ++i) {  // [0] is "<root>"
      const std::string& c = e.context[i];
      r.tokens.push_back(c.size() >= 2 && c.front() == '[' && c.back() == ']' ? c.substr(1, c.size() - 2) : c);
    }
    r.message = e.description;
    raw.push_back(std::move(r));
  }
  auto is_wrapper = [](const std::string& m) {
    return starts_with(m, "Failed to validate against schema associated with property name") ||
           starts_with(m, "Failed to validate item #") || starts_with(m, "Failed to validate against child schema") ||
           starts_with(m, "Failed to validate against a conditional schema") ||
           starts_with(m, "Failed to validate against additional properties schema") ||
           starts_with(m, "Failed to validate against dependent schema");
  };
  auto has_specific_within = [&](const std::vector<std::string>& base) {
    return std::any_of(raw.begin(), raw.end(), [&](const RawError& r) {
      return !is_wrapper(r.message) && is_within(r.tokens, base);
    });
  };

  std::vector<std::pair<std::vector<std::string>, std::string>> kept;  // path, readable message
  for (const auto& r : raw) {
    const std::string& m = r.message;
    const json* at = locate(value, r.tokens);
    if (starts_with(m, "Failed to validate against schema associated with property name")) {
      std::vector<std::string> path = r.tokens;
      path.push_back(wrapped_token(m));
      // With nothing more specific below it, the member's schema is `false`: it must not be there.
      if (!has_specific_within(path)) kept.emplace_back(path, "must not be present in this message");
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
    } else if (starts_with(m, "Missing required property")) {
      kept.emplace_back(r.tokens, "missing required member '" + wrapped_token(m) + "'");
    } else {
      kept.emplace_back(r.tokens, m);
    }
  }
  // Most specific (deepest) first; valijson's order is kept among equals.
  std::stable_sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  for (auto& [path, message] : kept) out.push_back({prefix + to_pointer(path), std::move(message)});
}

// ---------------------------------------------------------------------------------------------
// Selecting definitions for one message.

class Check {
 public:
  Check(const VersionData& vd, ValidationOutcome& out) : vd_(vd), out_(out) {}

  void issue(std::string pointer, std::string message) {
    out_.valid = false;
    out_.issues.push_back({std::move(pointer), std::move(message)});
  }

  void against(std::string_view definition, const json& value, const std::string& prefix) {
    const valijson::Subschema* schema = vd_.definition(definition);
    if (schema == nullptr) {
      issue(prefix, "no definition named '" + std::string(definition) + "' in " + vd_.origin);
      return;
    }
    try {
      // Our own schemas are fuzzed against messages as deep as the reader allows; a user's file
      // could nest schemas per level deeply enough to overflow the stack on a deep message, or
      // apply so many per level that checking one takes minutes.
      ValueCost cost;
      if (!vd_.builtin) cost = check_value_within_limits(vd_.bounds, value);
      valijson::Validator validator;
      valijson::adapters::NlohmannJsonAdapter target(value);
      {
        RegexBudget patterns;  // a user's file may hold "pattern": bounded over the whole message
        PatternBudgetScope scope(&patterns);
        if (validator.validate(*schema, target, nullptr)) return;  // fast path: no error bookkeeping
      }
      out_.valid = false;
      // Invalid, whatever follows. Collecting every error runs patterns the first pass skipped, so
      // it gets a budget of its own; if even that is beyond the limits, or the bookkeeping would
      // take too long, the verdict stands bare.
      if (cost.explain >= kMaxSchemaWork) {
        issue(prefix, "does not match " + std::string(definition) + " (which part is not worked out: that could take " +
                          std::to_string(cost.explain) + " or more steps of error bookkeeping)");
        return;
      }
      valijson::ValidationResults results;
      try {
        RegexBudget patterns;
        PatternBudgetScope scope(&patterns);
        validator.validate(*schema, target, &results);
      } catch (const SchemaBeyondLimits& e) {
        issue(prefix, "does not match " + std::string(definition) + " (which part could not be worked out: " +
                          e.what() + ")");
        return;
      }
      append_issues(results, value, prefix, out_.issues);
      if (results.numErrors() == 0) issue(prefix, "does not match " + std::string(definition));
    } catch (const SchemaBeyondLimits& e) {
      // A check mcpspec cannot make says nothing about the message (ValidationOutcome::unchecked).
      out_.unchecked.push_back((prefix.empty() ? std::string() : prefix + ": ") + std::string(definition) + ": " +
                               e.what());
    } catch (const std::exception& e) {
      issue(prefix, "the schema could not be applied: " + std::string(e.what()));
    }
  }

  void single(const json& message, Sender sender, std::string_view answered, const std::string& prefix) {
    if (!message.is_object()) {
      out_.definition = vd_.envelope.any;
      issue(prefix, std::string("a JSON-RPC message must be an object, found ") + message.type_name());
      return;
    }
    if (message.contains("method")) {
      call(message, sender, prefix);
    } else if (message.contains("result") && message.contains("error")) {
      out_.definition = vd_.envelope.any;
      if (vd_.builtin) issue(prefix, "a response carries result or error, never both");
      against(vd_.envelope.any, message, prefix);
    } else if (message.contains("error")) {
      out_.definition = vd_.envelope.error_response;
      against(vd_.envelope.error_response, message, prefix);
    } else if (message.contains("result")) {
      response(message, sender, answered, prefix);
    } else {
      out_.definition = vd_.envelope.any;
      issue(prefix, "not a JSON-RPC message: it has none of method, result and error");
    }
  }

 private:
  void call(const json& message, Sender sender, const std::string& prefix) {
    const bool has_id = message.contains("id");
    const std::string& envelope = has_id ? vd_.envelope.request : vd_.envelope.notification;
    const json& method_value = *message.find("method");
    const MethodEntry* m = method_value.is_string() ? vd_.method(method_value.get_ref<const std::string&>()) : nullptr;
    if (m == nullptr) {  // unknown methods are a protocol matter; the envelope must still hold
      out_.definition = envelope;
      against(envelope, message, prefix);
      return;
    }
    const std::string& name = m->info.name;
    if (m->info.kind == "request" && !has_id) {
      out_.definition = envelope;
      issue(prefix, "'" + name + "' is a request, so it needs an id");
      against(envelope, message, prefix);
      return;
    }
    if (m->info.kind == "notification" && has_id) {
      out_.definition = envelope;
      issue(prefix + "/id", "'" + name + "' is a notification and must not carry an id");
      against(envelope, message, prefix);
      return;
    }
    const char* who = sender_name(sender);
    if (m->info.from != "both" && m->info.from != who) {
      issue(prefix + "/method", "'" + name + "' is sent by the " + m->info.from + ", not by the " + who);
    }
    out_.definition = m->message_def;
    if (!vd_.message_defs_have_envelope) against(envelope, message, prefix);
    against(m->message_def, message, prefix);
  }

  void response(const json& message, Sender sender, std::string_view answered, const std::string& prefix) {
    out_.definition = vd_.envelope.result_response;
    against(vd_.envelope.result_response, message, prefix);
    if (answered.empty()) return;
    const MethodEntry* m = vd_.method(answered);
    if (m == nullptr) return;  // unknown method: the generic result is all we can check
    if (m->info.kind == "notification") {
      issue(prefix, "'" + m->info.name + "' is a notification; nothing answers it");
      return;
    }
    const char* who = sender_name(sender);
    if (m->info.from == who) {
      issue(prefix, "'" + m->info.name + "' is sent by the " + m->info.from + ", so its response cannot come from the " + who);
    }
    const json& result = *message.find("result");
    if (!result.is_object() || m->info.result.empty()) return;
    std::string definition = m->info.result;
    // A request run as a task is answered with the task, not with its eventual result.
    if (!m->task_result.empty() && result.contains("task")) definition = m->task_result;
    out_.definition = definition;
    against(definition, result, prefix + "/result");
  }

  const VersionData& vd_;
  ValidationOutcome& out_;
};

void tidy(ValidationOutcome& out) {
  std::set<std::pair<std::string, std::string>> seen;
  std::vector<SchemaIssue> unique;
  for (auto& i : out.issues) {
    if (seen.emplace(i.pointer, i.message).second) unique.push_back(std::move(i));
  }
  out.issues = std::move(unique);
  if (!out.issues.empty()) out.valid = false;
}

std::string known_list(const std::vector<std::string>& versions) {
  std::string out;
  for (const auto& v : versions) out += (out.empty() ? "" : ", ") + v;
  return out;
}

}  // namespace

// -----------------------------------------------------------------------------------------------

const char* sender_name(Sender s) { return s == Sender::Client ? "client" : "server"; }

SchemaRegistry::SchemaRegistry() = default;
SchemaRegistry::~SchemaRegistry() = default;

const SchemaRegistry& SchemaRegistry::builtin() {
  static const SchemaRegistry* instance = [] {
    std::unique_ptr<SchemaRegistry> registry(new SchemaRegistry());
    for (const auto& version : builtin_versions()) registry->versions_.push_back(load_builtin(version));
    if (registry->versions_.empty()) throw std::logic_error("no built-in schemas are embedded in this binary");
    return registry.release();  // never destroyed: other statics may still validate at exit
  }();
  return *instance;
}

std::unique_ptr<SchemaRegistry> SchemaRegistry::from_file(const std::string& path, const std::string& version) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw std::runtime_error("schema file '" + path + "' " +
                             (std::filesystem::exists(path, ec) ? "is not a regular file" : "does not exist"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read schema file '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw std::runtime_error("cannot read schema file '" + path + "'");
  json document;
  try {
    document = json::parse(text.str());
  } catch (const json::exception& e) {  // parse_error, or out_of_range for a number beyond a double
    throw std::runtime_error("schema file '" + path + "' is not valid JSON: " + e.what());
  }
  return from_document(std::move(document), version, path);
}

std::unique_ptr<SchemaRegistry> SchemaRegistry::from_document(json document, const std::string& version,
                                                              const std::string& origin) {
  if (version.empty()) throw std::runtime_error(origin + ": a protocol version must be given for the schema");
  auto prepared = schema_dialect::to_draft07(std::move(document), origin);
  auto vd = std::make_unique<VersionData>();
  vd->version = version;
  vd->origin = origin;
  vd->batches = true;  // the file's own JSONRPCMessage decides whether arrays are allowed
  vd->notes = std::move(prepared.notes);
  compile(*vd, std::move(prepared.document), prepared.parse_as_draft4);
  pick_envelope(*vd);
  scan_methods(*vd, builtin().find(version));
  std::unique_ptr<SchemaRegistry> registry(new SchemaRegistry());
  registry->versions_.push_back(std::move(vd));
  return registry;
}

const SchemaRegistry::VersionData* SchemaRegistry::find(std::string_view version) const {
  for (const auto& vd : versions_) {
    if (vd->version == version) return vd.get();
  }
  return nullptr;
}

std::vector<std::string> SchemaRegistry::versions() const {
  std::vector<std::string> out;
  for (const auto& vd : versions_) out.push_back(vd->version);
  return out;
}

bool SchemaRegistry::has_version(std::string_view version) const { return find(version) != nullptr; }

ValidationOutcome SchemaRegistry::validate(const json& message, std::string_view version, Sender sender,
                                           std::string_view answered_method) const {
  ValidationOutcome out;
  const VersionData* vd = find(version);
  if (vd == nullptr) {
    out.valid = false;
    out.issues.push_back({"", "unknown protocol version '" + std::string(version) + "' (known: " + known_list(versions()) + ")"});
    return out;
  }
  Check check(*vd, out);
  if (!message.is_array()) {
    check.single(message, sender, answered_method, "");
    tidy(out);
    return out;
  }
  if (vd->builtin && !vd->batches) {
    out.definition = "Message";
    check.issue("", "a batch (JSON array) is not allowed in protocol version " + vd->version +
                        "; only 2025-03-26 defines batches");
    return out;
  }
  const std::string batch = vd->builtin ? "RpcBatch" : vd->envelope.any;
  if (vd->builtin) {
    // Said directly rather than through RpcBatch, whose if/then verdicts read poorly here.
    std::size_t calls = 0;
    for (const auto& item : message) calls += item.is_object() && item.contains("method") ? 1 : 0;
    if (message.empty()) check.issue("", "a batch must hold at least one message");
    if (calls != 0 && calls != message.size()) {
      check.issue("", "a batch holds requests and notifications, or responses, never both");
    }
  } else {
    check.against(batch, message, "");
    if (!out.valid) {  // the user's schema refuses the array as a whole
      out.definition = batch;
      tidy(out);
      return out;
    }
  }
  for (std::size_t i = 0; i < message.size(); ++i) {
    const std::string prefix = "/" + std::to_string(i);
    const json& item = message[i];
    if (vd->builtin && item.is_object() && item.contains("method") && *item.find("method") == "initialize") {
      check.issue(prefix + "/method", "initialize must not be part of a batch");
    }
    check.single(item, sender, {}, prefix);
  }
  out.definition = batch;
  tidy(out);
  return out;
}

std::optional<MethodInfo> SchemaRegistry::method(std::string_view version, std::string_view name) const {
  const VersionData* vd = find(version);
  if (vd == nullptr) return std::nullopt;
  const MethodEntry* m = vd->method(name);
  if (m == nullptr) return std::nullopt;
  return m->info;
}

std::vector<MethodInfo> SchemaRegistry::methods(std::string_view version) const {
  std::vector<MethodInfo> out;
  const VersionData* vd = find(version);
  if (vd == nullptr) return out;
  for (const auto& [name, m] : vd->methods) out.push_back(m.info);
  std::sort(out.begin(), out.end(), [](const MethodInfo& a, const MethodInfo& b) { return a.name < b.name; });
  return out;
}

ValidationOutcome SchemaRegistry::validate_definition(const json& value, std::string_view version,
                                                      std::string_view definition) const {
  ValidationOutcome out;
  out.definition = std::string(definition);
  const VersionData* vd = find(version);
  if (vd == nullptr) {
    out.valid = false;
    out.issues.push_back({"", "unknown protocol version '" + std::string(version) + "' (known: " + known_list(versions()) + ")"});
    return out;
  }
  if (vd->definition(definition) == nullptr) {
    out.valid = false;
    out.issues.push_back({"", "no definition named '" + std::string(definition) + "' in " + vd->origin});
    return out;
  }
  Check(*vd, out).against(definition, value, "");
  tidy(out);
  return out;
}

std::vector<std::string> SchemaRegistry::definitions(std::string_view version) const {
  const VersionData* vd = find(version);
  return vd == nullptr ? std::vector<std::string>() : vd->names;
}

bool SchemaRegistry::has_definition(std::string_view version, std::string_view definition) const {
  const VersionData* vd = find(version);
  return vd != nullptr && vd->definition(definition) != nullptr;
}

std::vector<std::string> SchemaRegistry::notes(std::string_view version) const {
  const VersionData* vd = find(version);
  return vd == nullptr ? std::vector<std::string>() : vd->notes;
}

}  // namespace mcpspec::protocol
