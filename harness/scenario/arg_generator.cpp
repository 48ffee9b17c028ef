// generate_arguments(): tool arguments built from the inputSchema a server declares, so the
// generic suite can call tools it has never seen. The schema comes from the target, so every
// malformed or unsatisfiable part is reported with its location instead of guessed around.
//
// Choices worth knowing (documented in docs/scenario-format.md by the lead):
//  - per value: const, then default (when it fits the schema), then the first enum value, then
//    a value built from the type;
//  - a missing type is inferred from the keywords present (properties -> object, items ->
//    array, minLength/format -> string, minimum -> number); with no hint at all the value is
//    the string "example" (such a schema accepts anything);
//  - strings are "example" (or a fixed value for the formats uri, date-time, date, email, uuid),
//    cut or padded with 'x' to minLength/maxLength; `pattern` is not honoured;
//  - integers are 1, or the lowest value allowed by minimum/exclusiveMinimum, or the highest
//    allowed by maximum when that is below 1, rounded to multipleOf; numbers likewise from 1.5;
//  - booleans are false; arrays hold minItems elements ("full": at least one);
//  - "full" adds optional properties (and the one element of an otherwise empty array) only in
//    the outer kMaxFullDepth levels, so a recursive schema with optional children ends;
//  - "first property" means the first in the key order of the schema object as parsed, which
//    nlohmann::json sorts alphabetically; "first required" follows the `required` array.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "harness/util/string_formats.hpp"
#include "harness/scenario/matcher_values.hpp"
#include "harness/scenario/substitute.hpp"

namespace mcpspec::scenario {

using nlohmann::json;

namespace {

constexpr int kMaxDepth = 64;            // nesting of generated values (recursive $ref ends here)
constexpr int kMaxFullDepth = 8;         // "full" adds optional properties only this deep
constexpr int kMaxRefHops = 32;          // $ref -> $ref chains
constexpr std::size_t kMaxLength = 1 << 16;  // minLength we are willing to pad to
constexpr std::size_t kMaxItems = 1000;      // minItems we are willing to fill
// Parts of one argument object in all: nested minItems multiply (980 arrays of 980 strings
// took a sanitizer build past its 10 s limit in a libFuzzer campaign), and so do copies of a
// large default. Text in all, likewise: 1000 strings padded to kMaxLength are 64 MiB.
constexpr std::size_t kMaxValues = 100000;
constexpr std::size_t kMaxText = std::size_t{1} << 24;

[[noreturn]] void fail(const std::string& ptr, const std::string& what) {
  throw SubstitutionError("inputSchema" + ptr + ": " + what);
}

std::string escape_token(const std::string& token) { return detail::escape_pointer_token(token); }

// A non-negative integer keyword (minLength, minItems, ...), if present.
std::optional<std::size_t> count_keyword(const json& s, const char* key, const std::string& ptr) {
  auto it = s.find(key);
  if (it == s.end()) return std::nullopt;
  if (it->is_number_unsigned() || (it->is_number_integer() && it->get<std::int64_t>() >= 0))
    return it->get<std::size_t>();
  if (it->is_number_float() && it->get<double>() >= 0 && std::trunc(it->get<double>()) == it->get<double>() &&
      it->get<double>() < 1e18)
    return static_cast<std::size_t>(it->get<double>());
  fail(ptr + "/" + key, std::string(key) + " must be a non-negative integer, got " + detail::show(*it));
}

// The numeric range a schema allows; draft-04 boolean exclusiveMinimum/Maximum included.
struct Range {
  std::optional<long double> lo, hi;
  bool lo_excl = false, hi_excl = false;
};

long double as_number(const json& v) {
  if (v.is_number_unsigned()) return static_cast<long double>(v.get<std::uint64_t>());
  if (v.is_number_integer()) return static_cast<long double>(v.get<std::int64_t>());
  return static_cast<long double>(v.get<double>());
}

Range range_of(const json& s, const std::string& ptr) {
  Range r;
  auto number = [&](const char* key) -> std::optional<long double> {
    auto it = s.find(key);
    if (it == s.end() || it->is_boolean()) return std::nullopt;
    if (!it->is_number()) fail(ptr + "/" + key, std::string(key) + " must be a number, got " + detail::show(*it));
    return as_number(*it);
  };
  r.lo = number("minimum");
  r.hi = number("maximum");
  if (auto x = number("exclusiveMinimum"); x && (!r.lo || *x >= *r.lo)) r.lo = x, r.lo_excl = true;
  if (auto x = number("exclusiveMaximum"); x && (!r.hi || *x <= *r.hi)) r.hi = x, r.hi_excl = true;
  if (s.value("exclusiveMinimum", json()) == json(true) && r.lo) r.lo_excl = true;
  if (s.value("exclusiveMaximum", json()) == json(true) && r.hi) r.hi_excl = true;
  return r;
}

bool in_range(long double x, const Range& r) {
  if (r.lo && (r.lo_excl ? x <= *r.lo : x < *r.lo)) return false;
  if (r.hi && (r.hi_excl ? x >= *r.hi : x > *r.hi)) return false;
  return true;
}

std::vector<std::string> type_names(const json& s) {
  std::vector<std::string> out;
  auto it = s.find("type");
  if (it == s.end()) return out;
  if (it->is_string()) out.push_back(it->get<std::string>());
  if (it->is_array())
    for (const auto& t : *it)
      if (t.is_string()) out.push_back(t.get<std::string>());
  return out;
}

bool has_json_type(const json& v, const std::string& t) {
  if (t == "integer")
    return v.is_number_integer() || (v.is_number_float() && std::trunc(v.get<double>()) == v.get<double>());
  if (t == "number") return v.is_number();
  if (t == "string") return v.is_string();
  if (t == "boolean") return v.is_boolean();
  if (t == "object") return v.is_object();
  if (t == "array") return v.is_array();
  if (t == "null") return v.is_null();
  return true;  // an unknown type name restricts nothing we can check
}

class Generator {
 public:
  explicit Generator(const json& root) : root_(root) {}

  json arguments(const std::string& mode) {
    const Plain plain = effective(root_, "");
    const json& s = *plain;
    auto types = type_names(s);
    if (!types.empty() && std::find(types.begin(), types.end(), "object") == types.end())
      fail("/type", "is " + detail::show(s["type"]) + ", but tool arguments are an object");
    json args = object_value(s, "", mode == "full", 0);
    if (mode == "missing-required") {
      if (auto first = first_required(s, "")) args.erase(*first);
    } else if (mode == "wrong-type") {
      std::optional<std::string> target = first_required(s, "");
      if (!target && s.contains("properties") && !s["properties"].empty()) target = s["properties"].begin().key();
      // With no property at all there is nothing to get wrong; the minimal (empty) call stays.
      if (target) {
        const json* prop = property_schema(s, *target);
        args[*target] = wrong_value(prop ? *prop : json::object(), "/properties/" + escape_token(*target));
      }
    }
    return args;
  }

 private:
  // A schema as the generator reads it: the schema itself when it has no $ref or allOf to fold
  // (most have none: copying the element schema for each of 1000 array elements, a large
  // `default` included, was nearly all of a campaign input's time), else a folded copy.
  class Plain {
   public:
    // Named, not overloaded: json converts from nearly anything, so the overloads were ambiguous.
    static Plain borrow(const json& schema) {
      Plain p;
      p.borrowed_ = &schema;
      return p;
    }
    static Plain own(json folded) {
      Plain p;
      p.owned_ = std::move(folded);
      return p;
    }
    const json& operator*() const { return borrowed_ ? *borrowed_ : owned_; }
    const json* operator->() const { return &**this; }

   private:
    Plain() = default;
    json owned_;
    const json* borrowed_ = nullptr;
  };

  // `schema` with $ref followed and allOf folded in, so callers see plain keywords only.
  Plain effective(const json& schema, const std::string& ptr) {
    if (schema.is_object() && !schema.contains("$ref") && !schema.contains("allOf")) return Plain::borrow(schema);
    // allOf parts are folded recursively, and a part may $ref back to its own schema.
    struct Nesting {
      int& n;
      explicit Nesting(int& count) : n(++count) {}
      ~Nesting() { --n; }
    } nesting(effective_depth_);
    if (effective_depth_ > kMaxDepth)
      fail(ptr, "allOf/$ref nested deeper than " + std::to_string(kMaxDepth) + " levels (a schema that includes itself?)");
    json s = as_schema_object(schema, ptr);
    std::string where = ptr;
    for (int hops = 0; s.contains("$ref"); ++hops) {
      if (hops >= kMaxRefHops) fail(where, "$ref chain longer than " + std::to_string(kMaxRefHops) + " hops");
      json target = as_schema_object(resolve_ref(s["$ref"], where + "/$ref"), where + "/$ref");
      s.erase("$ref");
      // Keywords beside $ref (allowed since draft 2019-09) refine the target.
      for (auto it = s.begin(); it != s.end(); ++it) target[it.key()] = it.value();
      s = std::move(target);
    }
    if (auto all = s.find("allOf"); all != s.end()) {
      if (!all->is_array()) fail(ptr + "/allOf", "allOf must be an array");
      json parts = *all;
      s.erase("allOf");
      for (std::size_t i = 0; i < parts.size(); ++i) merge_into(s, *effective(parts[i], ptr + "/allOf/" + std::to_string(i)));
    }
    return Plain::own(std::move(s));
  }

  // Boolean schemas: true accepts anything (an empty object says the same), false nothing.
  static json as_schema_object(const json& schema, const std::string& ptr) {
    if (schema.is_boolean()) {
      if (!schema.get<bool>()) fail(ptr, "the schema false accepts no value");
      return json::object();
    }
    if (!schema.is_object()) fail(ptr, "a schema must be an object or a boolean, got " + detail::show(schema));
    return schema;
  }

  // allOf: properties and required are combined; for other keywords the first one set wins.
  static void merge_into(json& into, const json& part) {
    for (auto it = part.begin(); it != part.end(); ++it) {
      if (it.key() == "properties" && it->is_object() && into.value("properties", json::object()).is_object()) {
        for (auto p = it->begin(); p != it->end(); ++p)
          if (!into["properties"].contains(p.key())) into["properties"][p.key()] = p.value();
      } else if (it.key() == "required" && it->is_array()) {
        json& req = into["required"];
        if (!req.is_array()) req = json::array();
        for (const auto& name : *it)
          if (std::find(req.begin(), req.end(), name) == req.end()) req.push_back(name);
      } else if (!into.contains(it.key())) {
        into[it.key()] = it.value();
      }
    }
  }

  json resolve_ref(const json& ref, const std::string& ptr) {
    if (!ref.is_string()) fail(ptr, "$ref must be a string, got " + detail::show(ref));
    const auto& text = ref.get_ref<const std::string&>();
    if (text.empty() || text[0] != '#')
      fail(ptr, "only references inside the same schema (\"#/$defs/...\", \"#/definitions/...\") are supported, got " +
                    detail::show(ref));
    try {
      json::json_pointer target(percent_decoded(text.substr(1), ptr));
      if (!root_.contains(target)) fail(ptr, detail::show(ref) + " does not exist in the schema");
      return root_.at(target);
    } catch (const json::exception&) {
      fail(ptr, detail::show(ref) + " is not a valid JSON Pointer fragment");
    }
  }

  // A URI fragment may percent-encode characters of the pointer ("#/$defs/a%20b").
  static std::string percent_decoded(const std::string& fragment, const std::string& ptr) {
    std::string out;
    for (std::size_t i = 0; i < fragment.size(); ++i) {
      if (fragment[i] != '%') {
        out += fragment[i];
        continue;
      }
      unsigned value = 0;
      auto hex = [](char c) { return std::string("0123456789abcdef").find(static_cast<char>(std::tolower(c))); };
      if (i + 2 >= fragment.size() || hex(fragment[i + 1]) == std::string::npos || hex(fragment[i + 2]) == std::string::npos)
        fail(ptr, "bad percent-escape in $ref fragment " + detail::show(json(fragment)));
      value = static_cast<unsigned>(hex(fragment[i + 1]) * 16 + hex(fragment[i + 2]));
      out += static_cast<char>(value);
      i += 2;
    }
    return out;
  }

  static const json* property_schema(const json& s, const std::string& name) {
    auto props = s.find("properties");
    if (props != s.end() && props->is_object() && props->contains(name)) return &(*props)[name];
    auto extra = s.find("additionalProperties");
    if (extra != s.end() && extra->is_object()) return &*extra;
    return nullptr;
  }

  static std::optional<std::string> first_required(const json& s, const std::string&) {
    auto req = s.find("required");
    if (req == s.end() || !req->is_array() || req->empty() || !(*req)[0].is_string()) return std::nullopt;
    return (*req)[0].get<std::string>();
  }

  // The type to build: the declared one (first that is not null), else inferred from keywords.
  static std::string pick_type(const json& s) {
    auto types = type_names(s);
    for (const auto& t : types)
      if (t != "null") return t;
    if (!types.empty()) return "null";
    if (s.contains("properties") || s.contains("required") || s.contains("additionalProperties")) return "object";
    if (s.contains("items") || s.contains("prefixItems") || s.contains("minItems")) return "array";
    if (s.contains("minLength") || s.contains("maxLength") || s.contains("format") || s.contains("pattern"))
      return "string";
    if (s.contains("minimum") || s.contains("maximum") || s.contains("exclusiveMinimum") ||
        s.contains("exclusiveMaximum") || s.contains("multipleOf"))
      return "number";
    return "";
  }

  // Every part of the arguments counts against kMaxValues: each generated value, and each
  // member of a const, default or enum value taken whole (980 copies of a default nested 400
  // levels deep are as large as nested minItems).
  void count_parts(std::size_t n, const std::string& ptr) {
    produced_ += n;
    if (produced_ > kMaxValues)
      fail(ptr, "the arguments would have more than " + std::to_string(kMaxValues) +
                    " parts (nested minItems multiply, and so do copies of a const, default or enum value); "
                    "that is more than we generate");
  }

  void count_text(std::size_t bytes, const std::string& ptr) {
    text_bytes_ += bytes;
    if (text_bytes_ > kMaxText)
      fail(ptr, "the arguments' strings would total more than " + std::to_string(kMaxText >> 20) +
                    " MiB (minLength times minItems); that is more than we generate");
  }

  json copied(const json& value, const std::string& ptr) {
    std::vector<const json*> pending{&value};  // a stack, not recursion: the value may nest deep
    while (!pending.empty()) {
      const json* v = pending.back();
      pending.pop_back();
      count_parts(1, ptr);
      if (v->is_string()) count_text(v->get_ref<const std::string&>().size(), ptr);
      if (v->is_structured())
        for (const auto& member : *v) pending.push_back(&member);
    }
    return value;
  }

  json value_for(const json& schema, const std::string& ptr, bool full, int depth, std::size_t variant) {
    count_parts(1, ptr);
    if (depth > kMaxDepth)
      fail(ptr, "schema nested deeper than " + std::to_string(kMaxDepth) + " levels (a recursive $ref that is required?)");
    // Below kMaxFullDepth only what is required is generated (see the file comment).
    full = full && depth < kMaxFullDepth;
    const Plain plain = effective(schema, ptr);
    const json& s = *plain;
    if (s.contains("const")) return copied(s["const"], ptr + "/const");
    if (variant == 0 && s.contains("default") && fits(s["default"], s)) return copied(s["default"], ptr + "/default");
    if (auto e = s.find("enum"); e != s.end() && e->is_array() && !e->empty())
      return copied((*e)[variant % e->size()], ptr + "/enum");
    for (const char* key : {"anyOf", "oneOf"}) {
      auto branches = s.find(key);
      if (branches == s.end()) continue;
      if (!branches->is_array() || branches->empty()) fail(ptr + "/" + key, std::string(key) + " must be a non-empty array");
      for (std::size_t i = 0; i < branches->size(); ++i) {
        const std::string branch_ptr = ptr + "/" + key + "/" + std::to_string(i);
        const Plain branch = effective((*branches)[i], branch_ptr);
        if (pick_type(*branch) != "null") return value_for(*branch, branch_ptr, full, depth + 1, variant);
      }
      return nullptr;  // every branch is null
    }
    const std::string type = pick_type(s);
    if (type == "object") return object_value(s, ptr, full, depth);
    if (type == "array") return array_value(s, ptr, full, depth);
    if (type == "string" || type.empty()) return string_value(s, ptr, variant);
    if (type == "integer") return integer_value(s, ptr, variant);
    if (type == "number") return number_value(s, ptr, variant);
    if (type == "boolean") return variant % 2 == 1;
    if (type == "null") return nullptr;
    fail(ptr + "/type", "unknown type " + detail::show(json(type)));
  }

  json object_value(const json& s, const std::string& ptr, bool full, int depth) {
    const json empty = json::object();
    auto p = s.find("properties");
    if (p != s.end() && !p->is_object()) fail(ptr + "/properties", "properties must be an object");
    const json& props = p == s.end() ? empty : *p;
    json out = json::object();
    if (auto req = s.find("required"); req != s.end()) {
      if (!req->is_array()) fail(ptr + "/required", "required must be an array of names");
      for (const auto& name : *req) {
        if (!name.is_string()) fail(ptr + "/required", "required must be an array of names, found " + detail::show(name));
        const auto& key = name.get_ref<const std::string&>();
        const json* prop = property_schema(s, key);
        out[key] = value_for(prop ? *prop : empty, ptr + "/properties/" + escape_token(key), full, depth + 1, 0);
      }
    }
    if (full)
      for (auto it = props.begin(); it != props.end(); ++it)
        if (!out.contains(it.key()))
          out[it.key()] = value_for(it.value(), ptr + "/properties/" + escape_token(it.key()), full, depth + 1, 0);
    return out;
  }

  json array_value(const json& s, const std::string& ptr, bool full, int depth) {
    std::size_t count = count_keyword(s, "minItems", ptr).value_or(0);
    auto max = count_keyword(s, "maxItems", ptr);
    if (max && count > *max) fail(ptr, "minItems " + std::to_string(count) + " is greater than maxItems " + std::to_string(*max));
    if (count > kMaxItems) fail(ptr + "/minItems", "minItems " + std::to_string(count) + " is more than we generate (" + std::to_string(kMaxItems) + ")");
    if (full && count == 0 && (!max || *max > 0)) count = 1;
    // Tuples: prefixItems (2020-12) or an items array (draft-07); further elements use items /
    // additionalItems, or accept anything.
    const json* tuple = nullptr;
    std::string tuple_key;
    const json* rest = nullptr;
    std::string rest_key;
    if (auto it = s.find("prefixItems"); it != s.end() && it->is_array()) {
      tuple = &*it, tuple_key = "prefixItems";
      if (auto items = s.find("items"); items != s.end() && !items->is_array()) rest = &*items, rest_key = "items";
    } else if (auto items = s.find("items"); items != s.end()) {
      if (items->is_array()) {
        tuple = &*items, tuple_key = "items";
        if (auto more = s.find("additionalItems"); more != s.end()) rest = &*more, rest_key = "additionalItems";
      } else {
        rest = &*items, rest_key = "items";
      }
    }
    auto unique_key = s.find("uniqueItems");
    const bool unique = unique_key != s.end() && *unique_key == json(true);
    json out = json::array();
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t variant = unique ? i : 0;  // distinct elements when uniqueItems asks for them
      if (tuple && i < tuple->size())
        out.push_back(value_for((*tuple)[i], ptr + "/" + tuple_key + "/" + std::to_string(i), full, depth + 1, variant));
      else if (rest)
        out.push_back(value_for(*rest, ptr + "/" + rest_key, full, depth + 1, variant));
      else
        out.push_back(value_for(json::object(), ptr + "/items", full, depth + 1, variant));
    }
    return out;
  }

  json string_value(const json& s, const std::string& ptr, std::size_t variant) {
    const std::string n = variant ? std::to_string(variant) : "";
    const std::string format = s.value("format", json("")).is_string() ? s.value("format", std::string()) : "";
    std::string text = format == "uri" || format == "uri-reference" || format == "iri"
                           ? "https://example.com" + (n.empty() ? "" : "/" + n)
                       : format == "date-time" ? "2025-01-01T00:00:00Z"
                       : format == "date"      ? "2025-01-01"
                       : format == "time"      ? "00:00:00Z"
                       : format == "email"     ? "a" + n + "@example.com"
                       : format == "uuid"      ? "00000000-0000-4000-8000-000000000000"
                                               : "example" + n;
    std::size_t min = count_keyword(s, "minLength", ptr).value_or(0);
    auto max = count_keyword(s, "maxLength", ptr);
    if (max && min > *max) fail(ptr, "minLength " + std::to_string(min) + " is greater than maxLength " + std::to_string(*max));
    if (min > kMaxLength) fail(ptr + "/minLength", "minLength " + std::to_string(min) + " is more than we generate (" + std::to_string(kMaxLength) + ")");
    // Generated text is ASCII, so bytes and code points agree here.
    if (max && text.size() > *max) text.resize(*max);
    if (text.size() < min) text.append(min - text.size(), 'x');
    count_text(text.size(), ptr);
    return text;
  }

  json integer_value(const json& s, const std::string& ptr, std::size_t variant) {
    Range r = range_of(s, ptr);
    std::optional<long double> lo, hi;  // inclusive integer bounds
    if (r.lo) lo = r.lo_excl ? std::floor(*r.lo) + 1 : std::ceil(*r.lo);
    if (r.hi) hi = r.hi_excl ? std::ceil(*r.hi) - 1 : std::floor(*r.hi);
    long double x = lo ? *lo : (hi && *hi < 1 ? *hi : 1);
    if (!hi || x + variant <= *hi) x += variant;
    if (auto step = multiple_of(s, ptr)) {
      // A fractional step (2.5) has integer multiples only every few steps, so several are
      // tried: upwards from x, then (with no lower bound) downwards.
      std::optional<long double> found;
      for (int direction : {1, -1}) {
        if (direction < 0 && lo) break;
        long double k = direction > 0 ? std::ceil(x / *step) : std::floor(x / *step);
        for (int tries = 0; tries < 1000 && !found; ++tries, k += direction) {
          long double c = snap(k, *step);
          if ((hi && c > *hi) || (lo && c < *lo)) break;
          if (std::trunc(c) == c) found = c;
        }
        if (found) break;
      }
      if (!found) fail(ptr, "no integer multiple of " + detail::show(s["multipleOf"]) + " lies within the bounds " + describe(r));
      x = *found;
    }
    if ((lo && hi && *lo > *hi) || (hi && x > *hi))
      fail(ptr, "no integer satisfies the bounds " + describe(r));
    if (x < static_cast<long double>(std::numeric_limits<std::int64_t>::min()) ||
        x > static_cast<long double>(std::numeric_limits<std::int64_t>::max()))
      fail(ptr, "the bounds " + describe(r) + " lie outside 64-bit integers");
    return static_cast<std::int64_t>(x);
  }

  json number_value(const json& s, const std::string& ptr, std::size_t variant) {
    Range r = range_of(s, ptr);
    long double x = 1.5L + variant;
    if (!in_range(x, r)) {
      if (r.lo && r.hi) x = r.lo_excl || r.hi_excl ? (*r.lo + *r.hi) / 2 : *r.lo;
      else if (r.lo) x = r.lo_excl ? *r.lo + 1 : *r.lo;
      else x = r.hi_excl ? *r.hi - 1 : *r.hi;
    }
    if (!in_range(x, r)) fail(ptr, "no number satisfies the bounds " + describe(r));
    if (auto step = multiple_of(s, ptr)) {
      // The multiples nearest to x, then those next to each bound.
      std::vector<long double> candidates = {snap(std::ceil(x / *step), *step), snap(std::floor(x / *step), *step)};
      if (r.lo) {
        const long double first = snap(std::ceil(*r.lo / *step), *step);
        candidates.insert(candidates.end(), {first, first + *step});
      }
      if (r.hi) {
        const long double last = snap(std::floor(*r.hi / *step), *step);
        candidates.insert(candidates.end(), {last, last - *step});
      }
      auto it = std::find_if(candidates.begin(), candidates.end(), [&](long double c) { return in_range(c, r); });
      if (it == candidates.end())
        fail(ptr, "no multiple of " + detail::show(s["multipleOf"]) + " lies within the bounds " + describe(r));
      x = *it;
    }
    return static_cast<double>(x);
  }

  // multipleOf, when present and usable.
  static std::optional<long double> multiple_of(const json& s, const std::string& ptr) {
    auto m = s.find("multipleOf");
    if (m == s.end()) return std::nullopt;
    if (!m->is_number() || as_number(*m) <= 0)
      fail(ptr + "/multipleOf", "multipleOf must be a number greater than 0, got " + detail::show(*m));
    return as_number(*m);
  }

  // k * step as the double a JSON number holds, so 10 * 0.1 is 1 (validators compare in double).
  static long double snap(long double k, long double step) {
    return static_cast<long double>(static_cast<double>(k) * static_cast<double>(step));
  }

  static std::string describe(const Range& r) {
    auto num = [](long double v) {
      // Integral bounds print as integers ("<= 1", not "<= 1.0").
      if (std::trunc(v) == v && std::fabs(v) < 9e18L) return std::to_string(static_cast<std::int64_t>(v));
      return detail::show(json(static_cast<double>(v)));
    };
    std::string out;
    if (r.lo) out += (r.lo_excl ? "> " : ">= ") + num(*r.lo);
    if (r.hi) out += (out.empty() ? "" : " and ") + std::string(r.hi_excl ? "< " : "<= ") + num(*r.hi);
    return out.empty() ? "(none)" : out;
  }

  // Whether a `default` can be used as is. Checks the keywords the generator itself honours;
  // others (pattern, format, nested property schemas) are taken on trust.
  bool fits(const json& v, const json& s) {
    if (auto c = s.find("const"); c != s.end() && !detail::json_equal(*c, v)) return false;
    if (auto e = s.find("enum"); e != s.end() && e->is_array()) {
      bool listed = false;
      for (const auto& option : *e) listed = listed || detail::json_equal(option, v);
      if (!listed) return false;
    }
    auto types = type_names(s);
    if (!types.empty() && std::none_of(types.begin(), types.end(), [&](const std::string& t) { return has_json_type(v, t); }))
      return false;
    try {
      if (v.is_number() && !in_range(as_number(v), range_of(s, ""))) return false;
      auto length_ok = [&](std::size_t len, const char* min_key, const char* max_key) {
        auto min = count_keyword(s, min_key, ""), max = count_keyword(s, max_key, "");
        return (!min || len >= *min) && (!max || len <= *max);
      };
      if (v.is_string() && !length_ok(util::code_point_count(v.get_ref<const std::string&>()), "minLength", "maxLength"))
        return false;
      if (v.is_array() && !length_ok(v.size(), "minItems", "maxItems")) return false;
    } catch (const SubstitutionError&) {
      return false;  // malformed bounds: the generator reports them when it builds the value
    }
    if (v.is_object())
      if (auto req = s.find("required"); req != s.end() && req->is_array())
        for (const auto& name : *req)
          if (!name.is_string() || !v.contains(name.get<std::string>())) return false;
    return true;
  }

  // A value of a type the schema does not accept: a string where anything else is expected,
  // 12345 where a string is.
  json wrong_value(const json& schema, const std::string& ptr) {
    const Plain plain = effective(schema, ptr);
    const json& s = *plain;
    std::vector<std::string> allowed = type_names(s);
    for (const char* key : {"anyOf", "oneOf"})
      if (auto branches = s.find(key); allowed.empty() && branches != s.end() && branches->is_array())
        for (std::size_t i = 0; i < branches->size(); ++i)
          for (auto& t : type_names(*effective((*branches)[i], ptr + "/" + key + "/" + std::to_string(i))))
            allowed.push_back(t);
    if (allowed.empty()) {
      if (s.contains("const")) allowed.push_back(detail::json_type_name(s["const"]));
      if (auto e = s.find("enum"); e != s.end() && e->is_array())
        for (const auto& option : *e) allowed.push_back(detail::json_type_name(option));
    }
    if (allowed.empty() && !pick_type(s).empty()) allowed.push_back(pick_type(s));
    auto allows = [&](const char* t) { return std::find(allowed.begin(), allowed.end(), t) != allowed.end(); };
    if (allowed.empty()) return 12345;  // the schema accepts anything; no type is wrong
    if (!allows("string")) return "wrong-type";
    if (!allows("number") && !allows("integer")) return 12345;
    if (!allows("boolean")) return true;
    if (!allows("object")) return json::object();
    if (!allows("array")) return json::array();
    return 12345;
  }

  const json& root_;
  int effective_depth_ = 0;
  std::size_t produced_ = 0;    // parts of the arguments so far (kMaxValues)
  std::size_t text_bytes_ = 0;  // bytes of their strings so far (kMaxText)
};

}  // namespace

json generate_arguments(const json& schema, const std::string& mode) {
  if (mode != "minimal" && mode != "full" && mode != "wrong-type" && mode != "missing-required")
    throw SubstitutionError("unknown argument mode \"" + mode + "\"; known: minimal, full, wrong-type, missing-required");
  if (!schema.is_object()) throw SubstitutionError("inputSchema must be a JSON object, got " + detail::show(schema));
  try {
    return Generator(schema).arguments(mode);
  } catch (const json::exception& e) {
    // A keyword of an unexpected JSON type that no check above anticipated: still the
    // target's schema at fault, reported like the others rather than as a harness crash.
    throw SubstitutionError(std::string("inputSchema: unexpected structure: ") + e.what());
  }
}

}  // namespace mcpspec::scenario
