// ${path} substitution: how captures, the environment and generated tool arguments reach the
// messages and matchers of a scenario. Errors say where in the value the bad reference sits.
#include "harness/scenario/substitute.hpp"
#include "harness/util/json_pointer.hpp"

#include <charconv>

namespace mcpspec::scenario {

using nlohmann::json;

namespace {

constexpr int kMaxDepth = 256;

// Where in the substituted value something went wrong, as a message prefix.
std::string at(const std::string& ptr) { return "at " + (ptr.empty() ? std::string("(root)") : ptr) + ": "; }

std::string as_json_text(const std::string& s) { return json(s).dump(-1, ' ', false, json::error_handler_t::replace); }

const char* kind(const json& v) {
  switch (v.type()) {
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::null: return "null";
    default: return "a number";
  }
}

// The value `path` ("a.b.0.c") names inside `vars`.
const json& resolve(const std::string& path, const json& vars, const std::string& ptr) {
  const std::string ref = "${" + path + "}";
  if (path.empty()) throw SubstitutionError(at(ptr) + "empty reference ${}");
  if (path.find_first_of("${") != std::string::npos)
    throw SubstitutionError(at(ptr) + "reference " + as_json_text(ref) + " contains '$' or '{' (references do not nest)");
  const json* current = &vars;
  std::string walked;  // the part of the path resolved so far, for messages
  std::size_t start = 0;
  for (;;) {
    std::size_t dot = path.find('.', start);
    std::string segment = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (segment.empty()) throw SubstitutionError(at(ptr) + ref + ": empty segment in the path");
    if (current->is_object()) {
      auto it = current->find(segment);
      if (it == current->end())
        throw SubstitutionError(at(ptr) + ref + ": " +
                                (walked.empty() ? "unknown variable " + as_json_text(segment)
                                                : walked + " has no key " + as_json_text(segment)));
      current = &*it;
    } else if (current->is_array()) {
      std::size_t index = 0;
      auto [end, ec] = std::from_chars(segment.data(), segment.data() + segment.size(), index);
      if (ec != std::errc() || end != segment.data() + segment.size())
        throw SubstitutionError(at(ptr) + ref + ": " + walked + " is an array and " + as_json_text(segment) +
                                " is not an index");
      if (index >= current->size())
        throw SubstitutionError(at(ptr) + ref + ": index " + segment + " is past the end of " + walked + " (" +
                                std::to_string(current->size()) + " elements)");
      current = &(*current)[index];
    } else {
      throw SubstitutionError(at(ptr) + ref + ": " +
                              (walked.empty() ? "no variables to look " + as_json_text(segment) + " up in"
                                              : walked + " is " + kind(*current) + ", it has no " + as_json_text(segment)));
    }
    walked += (walked.empty() ? "" : ".") + segment;
    if (dot == std::string::npos) return *current;
    start = dot + 1;
  }
}

json substitute_string(const std::string& s, const json& vars, const std::string& ptr) {
  if (s.find("${") == std::string::npos) return s;
  std::string out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (s.compare(i, 3, "$${") == 0) {
      out += "${";
      i += 3;
      continue;
    }
    if (s.compare(i, 2, "${") != 0) {
      out += s[i++];
      continue;
    }
    std::size_t close = s.find('}', i + 2);
    if (close == std::string::npos)
      throw SubstitutionError(at(ptr) + "\"${\" without a closing \"}\" in " + as_json_text(s));
    const json& value = resolve(s.substr(i + 2, close - i - 2), vars, ptr);
    // The whole string is one reference: the value keeps its JSON type.
    if (i == 0 && close == s.size() - 1) return value;
    out += value.is_string() ? value.get<std::string>() : value.dump(-1, ' ', false, json::error_handler_t::replace);
    i = close + 1;
  }
  return out;
}

json generate(const json& spec, const std::string& ptr) {
  if (!spec.is_object() || !spec.contains("schema"))
    throw SubstitutionError(at(ptr) + "$generate takes {\"schema\": <inputSchema>, \"mode\": \"minimal\"}, got " +
                            spec.dump(-1, ' ', false, json::error_handler_t::replace).substr(0, 200));
  for (auto it = spec.begin(); it != spec.end(); ++it)
    if (it.key() != "schema" && it.key() != "mode")
      throw SubstitutionError(at(ptr) + "$generate: unknown key " + as_json_text(it.key()) + " (known: schema, mode)");
  const json& mode = spec.contains("mode") ? spec["mode"] : json("minimal");
  if (!mode.is_string()) throw SubstitutionError(at(ptr) + "$generate: mode must be a string");
  try {
    return generate_arguments(spec["schema"], mode.get<std::string>());
  } catch (const SubstitutionError& e) {
    throw SubstitutionError(at(ptr) + "$generate: " + e.what());
  }
}

json substitute_at(const json& value, const json& vars, const std::string& ptr, int depth);

// {"$for_each_key": {"of": OBJECT, "value": V}}: an object with every key of OBJECT mapped to V,
// V substituted once per key with ${each.key} and ${each.value} naming that member of OBJECT.
// What a request answering input requests whose keys only the target knows needs (tasks/update),
// and, as a matcher, "each of those keys is gone or unchanged" (no key reused for a new request).
json for_each_key(const json& spec, const json& vars, const std::string& ptr, int depth) {
  if (!spec.is_object() || !spec.contains("of") || !spec.contains("value") || spec.size() != 2)
    throw SubstitutionError(at(ptr) + "$for_each_key takes {\"of\": <object>, \"value\": <value>}, got " +
                            spec.dump(-1, ' ', false, json::error_handler_t::replace).substr(0, 200));
  const json of = substitute_at(spec["of"], vars, ptr + "/of", depth + 1);
  if (!of.is_object()) throw SubstitutionError(at(ptr) + "$for_each_key: \"of\" must be an object, got " + kind(of));
  json out = json::object();
  if (of.empty()) return out;
  json with_each = vars.is_object() ? vars : json::object();
  for (const auto& [key, member] : of.items()) {
    with_each["each"] = {{"key", key}, {"value", member}};
    out[key] = substitute_at(spec["value"], with_each, ptr + "/value", depth + 1);
  }
  return out;
}

json substitute_at(const json& value, const json& vars, const std::string& ptr, int depth) {
  if (depth > kMaxDepth)
    throw SubstitutionError(at(ptr) + "value nested deeper than " + std::to_string(kMaxDepth) + " levels");
  if (value.is_string()) return substitute_string(value.get_ref<const std::string&>(), vars, ptr);
  if (value.is_array()) {
    json out = json::array();
    for (std::size_t i = 0; i < value.size(); ++i)
      out.push_back(substitute_at(value[i], vars, ptr + "/" + std::to_string(i), depth + 1));
    return out;
  }
  if (!value.is_object()) return value;
  if (value.contains("$generate")) {
    if (value.size() != 1)
      throw SubstitutionError(at(ptr) + "$generate must be the only key of its object");
    const std::string inner = ptr + "/$generate";
    return generate(substitute_at(value["$generate"], vars, inner, depth + 1), inner);
  }
  if (value.contains("$for_each_key")) {
    if (value.size() != 1)
      throw SubstitutionError(at(ptr) + "$for_each_key must be the only key of its object");
    const std::string inner = ptr + "/$for_each_key";
    return for_each_key(value["$for_each_key"], vars, inner, depth + 1);
  }
  json out = json::object();
  for (auto it = value.begin(); it != value.end(); ++it)
    out[it.key()] = substitute_at(it.value(), vars, pointer_child(ptr, it.key()), depth + 1);
  return out;
}

}  // namespace

json substitute(const json& value, const json& vars) { return substitute_at(value, vars, "", 0); }

}  // namespace mcpspec::scenario
