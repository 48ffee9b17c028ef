// check_matcher(): rejects malformed matchers before any value is matched, so a scenario bug is
// reported once, with its location, instead of as a confusing mismatch against every response.
#include <regex>
#include <set>

#include "harness/scenario/matcher.hpp"
#include "harness/scenario/matcher_ops.hpp"
#include "harness/util/bounded_regex.hpp"
#include "harness/scenario/matcher_values.hpp"

namespace mcpspec::scenario {

using nlohmann::json;

namespace detail {

const char* const kKnownOperators =
    "$absent, $allOf, $any, $anyOf, $base64, $capture, $conformsTo, $contains, $each, $eq, $exact, $gt, $gte, "
    "$in, $increasing, $len, $lt, $lte, $not, $regex, $type, $unique, $uri";

bool is_operator_object(const json& m) {
  if (!m.is_object() || m.empty()) return false;
  for (auto it = m.begin(); it != m.end(); ++it)
    if (!is_operator_key(it.key())) return false;
  return true;
}

std::string child_pointer(const std::string& parent, const std::string& token) {
  return parent + "/" + escape_pointer_token(token);
}

std::string child_pointer(const std::string& parent, std::size_t index) {
  return parent + "/" + std::to_string(index);
}

}  // namespace detail

namespace {

using detail::child_pointer;
using detail::show;

bool is_type_name(const std::string& s) {
  return s == "string" || s == "integer" || s == "number" || s == "object" || s == "array" ||
         s == "boolean" || s == "null";
}

// The loader checks matchers before ${...} references in them are substituted; an operator
// argument that still holds one is checked again by match(), which sees the substituted value.
struct Checker {
  bool allow_placeholders;
  void node(const json& m, const std::string& ptr, int depth) const;
  void each_of(const json& arg, const std::string& ptr, const std::string& op, int depth) const;
  void operator_arg(const std::string& op, const json& arg, const json& whole, const std::string& obj_ptr,
                    int depth) const;
};

bool is_known_operator(const std::string& op) {
  static const std::set<std::string> names = [] {
    std::set<std::string> out;
    std::string list = detail::kKnownOperators;
    for (std::size_t start = 0; start < list.size();) {
      std::size_t end = list.find(", ", start);
      out.insert(list.substr(start, end == std::string::npos ? std::string::npos : end - start));
      start = end == std::string::npos ? list.size() : end + 2;
    }
    return out;
  }();
  return names.count(op) > 0;
}

bool is_placeholder(const json& arg) {
  return arg.is_string() && arg.get_ref<const std::string&>().find("${") != std::string::npos;
}

void require_true(const json& arg, const std::string& ptr, const std::string& op) {
  if (arg != json(true)) throw MatcherError(ptr, op + " takes true, got " + show(arg));
}

void Checker::each_of(const json& arg, const std::string& ptr, const std::string& op, int depth) const {
  if (!arg.is_array() || arg.empty())
    throw MatcherError(ptr, op + " takes a non-empty array of matchers, got " + show(arg));
  for (std::size_t i = 0; i < arg.size(); ++i) node(arg[i], child_pointer(ptr, i), depth + 1);
}

void check_type_names(const json& arg, const std::string& ptr) {
  auto one = [&](const json& name, const std::string& where) {
    if (!name.is_string() || !is_type_name(name.get<std::string>()))
      throw MatcherError(where, "unknown type name " + show(name) +
                                    "; known: string, integer, number, object, array, boolean, null");
  };
  if (arg.is_string()) return one(arg, ptr);
  if (!arg.is_array() || arg.empty())
    throw MatcherError(ptr, "$type takes a type name or a non-empty array of them, got " + show(arg));
  for (std::size_t i = 0; i < arg.size(); ++i) one(arg[i], child_pointer(ptr, i));
}

void check_pointer_arg(const json& arg, const std::string& ptr, const std::string& op) {
  if (!arg.is_string())
    throw MatcherError(ptr, op + " takes a JSON Pointer string (\"\" for the elements themselves), got " +
                                show(arg));
  try {
    json::json_pointer p(arg.get<std::string>());
    (void)p;
  } catch (const json::exception&) {
    throw MatcherError(ptr, op + ": " + show(arg) + " is not a JSON Pointer (it must be \"\" or start "
                                                    "with '/', and '~' must be followed by 0 or 1)");
  }
}

void Checker::operator_arg(const std::string& op, const json& arg, const json& whole, const std::string& obj_ptr,
                           int depth) const {
  const std::string ptr = child_pointer(obj_ptr, op);
  if (!is_known_operator(op)) throw MatcherError(ptr, "unknown operator " + op + "; known: " + detail::kKnownOperators);
  if (allow_placeholders && is_placeholder(arg)) return;
  if (op == "$any" || op == "$base64" || op == "$uri") return require_true(arg, ptr, op);
  if (op == "$conformsTo") {
    if (!arg.is_object() && !arg.is_boolean()) throw MatcherError(ptr, "$conformsTo takes a JSON Schema, got " + show(arg));
    return;
  }
  if (op == "$absent") {
    require_true(arg, ptr, op);
    if (whole.size() != 1)
      throw MatcherError(obj_ptr, "$absent cannot be combined with other operators (the key is not there "
                                  "for them to test)");
    return;
  }
  if (op == "$type") return check_type_names(arg, ptr);
  if (op == "$regex") {
    if (!arg.is_string()) throw MatcherError(ptr, "$regex takes a pattern string, got " + show(arg));
    try {
      compiled_regex(arg.get<std::string>());
    } catch (const std::regex_error& e) {
      throw MatcherError(ptr, "pattern " + show(arg) + " does not compile as an ECMAScript regex: " + e.what());
    }
    return;
  }
  if (op == "$in" || op == "$anyOf" || op == "$allOf") return each_of(arg, ptr, op, depth);
  if (op == "$contains" || op == "$each" || op == "$not") return node(arg, ptr, depth + 1);
  if (op == "$len") {
    if (arg.is_number_unsigned() || (arg.is_number_integer() && arg.get<std::int64_t>() >= 0)) return;
    if (detail::is_operator_object(arg)) return node(arg, ptr, depth + 1);
    throw MatcherError(ptr, "$len takes a non-negative integer or an operator object such as {\"$gte\": 1}, got " +
                                show(arg));
  }
  if (op == "$gt" || op == "$gte" || op == "$lt" || op == "$lte") {
    if (!arg.is_number()) throw MatcherError(ptr, op + " takes a number, got " + show(arg));
    return;
  }
  if (op == "$eq") return;  // a literal: nothing inside it is interpreted
  if (op == "$exact") {
    if (!arg.is_object() || detail::is_operator_object(arg))
      throw MatcherError(ptr, "$exact takes a plain object (member name -> matcher), got " + show(arg));
    return node(arg, ptr, depth + 1);
  }
  if (op == "$capture") {
    if (!arg.is_string() || arg.get_ref<const std::string&>().empty())
      throw MatcherError(ptr, "$capture takes a non-empty name, got " + show(arg));
    // The name is later referenced as ${name}, whose path syntax gives these characters meaning.
    if (arg.get_ref<const std::string&>().find_first_of(".{}") != std::string::npos)
      throw MatcherError(ptr, "capture name " + show(arg) + " may not contain '.', '{' or '}'");
    return;
  }
  if (op == "$increasing" || op == "$unique") return check_pointer_arg(arg, ptr, op);
}

void Checker::node(const json& m, const std::string& ptr, int depth) const {
  if (depth > detail::kMaxMatcherDepth)
    throw MatcherError(ptr, "matcher nested deeper than " + std::to_string(detail::kMaxMatcherDepth) + " levels");
  if (m.is_array()) {
    for (std::size_t i = 0; i < m.size(); ++i) node(m[i], child_pointer(ptr, i), depth + 1);
    return;
  }
  if (!m.is_object()) return;
  // {"$for_each_key": ...} is built into a plain object when the step runs (substitute.hpp): before
  // that, only the matcher it repeats can be checked.
  if (allow_placeholders && m.size() == 1 && m.contains("$for_each_key")) {
    const json& spec = m["$for_each_key"];
    if (spec.is_object() && spec.contains("value"))
      node(spec["value"], child_pointer(child_pointer(ptr, "$for_each_key"), "value"), depth + 1);
    return;
  }
  const std::string* op_key = nullptr;
  const std::string* plain_key = nullptr;
  for (auto it = m.begin(); it != m.end(); ++it) {
    if (detail::is_operator_key(it.key()))
      op_key = op_key ? op_key : &it.key();
    else
      plain_key = plain_key ? plain_key : &it.key();
  }
  if (op_key && plain_key)
    throw MatcherError(ptr, "object mixes operator key " + *op_key + " with plain key \"" + *plain_key +
                                "\"; to match keys starting with '$' literally, use {\"$eq\": ...}");
  for (auto it = m.begin(); it != m.end(); ++it) {
    if (op_key)
      operator_arg(it.key(), it.value(), m, ptr, depth);
    else
      node(it.value(), child_pointer(ptr, it.key()), depth + 1);
  }
}

}  // namespace

void detail::check_matcher_tree(const json& matcher, bool allow_placeholders) {
  Checker{allow_placeholders}.node(matcher, "", 0);
}

void check_matcher(const json& matcher) { detail::check_matcher_tree(matcher, true); }

}  // namespace mcpspec::scenario
