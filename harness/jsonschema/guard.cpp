#include "harness/jsonschema/guard.hpp"
#include "harness/util/bounded_regex.hpp"
#include "harness/jsonschema/keywords.hpp"
#include "harness/util/json_text.hpp"

#include <valijson/constraint_builder.hpp>
#include <valijson/constraints/concrete_constraints.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>

#include <new>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mcpspec {

namespace {

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
constexpr auto kInt64Max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

// Depth-first walks without recursion (a schema graph can be as deep as its document): a stack
// of (node, index of its next edge). One step gives the next edge (from, to) of the node on top,
// or (from, kNone) once it has none left, popping it.
using Walk = std::vector<std::pair<std::size_t, std::size_t>>;
std::pair<std::size_t, std::size_t> next_edge(Walk& walk, const std::vector<std::vector<std::size_t>>& edges) {
  auto& [from, next] = walk.back();
  if (next < edges[from].size()) return {from, edges[from][next++]};
  const std::size_t done = from;
  walk.pop_back();
  return {done, kNone};
}

bool names_keyword(const std::string& k) { return schema_keywords::contains(schema_keywords::kSchemaMaps, k); }
bool data_keyword(const std::string& k) { return k == "const" || k == "enum" || k == "default" || k == "examples"; }
bool base_uri_keyword(const std::string& k) { return k == "id" || k == "$id"; }

thread_local RegexBudget* pattern_budget = nullptr;

// valijson copies a custom constraint through these two; ours are plain copyable values.
template <typename Derived>
class CopyableConstraint : public valijson::constraints::PolyConstraint {
  valijson::constraints::Constraint* cloneInto(void* where) const override {
    return new (where) Derived(static_cast<const Derived&>(*this));
  }
  size_t sizeOf() const override { return sizeof(Derived); }
};

// "pattern" under a name valijson does not know, so that its own std::regex check never runs.
constexpr const char* kBoundedPattern = "x-mcpspec-bounded-pattern";

// "pattern", checked with bounded_regex: linear in the string, no recursion per character.
class BoundedPatternConstraint : public CopyableConstraint<BoundedPatternConstraint> {
 public:
  explicit BoundedPatternConstraint(std::string pattern) : pattern_(std::move(pattern)) {}

  // A pattern mcpspec cannot afford to run says nothing about the string: SchemaBeyondLimits, not a
  // validation error (which would fail a server whose schema is fine, or pass it under "not").
  bool validate(const valijson::adapters::Adapter& target, const std::vector<std::string>& context,
                valijson::ValidationResults* results) const override {
    if (!target.isString()) return true;
    const std::string subject = target.asString();
    RegexFind found = RegexFind::NotFound;
    try {
      found = find_bounded(pattern_, subject, pattern_budget);
    } catch (const std::regex_error& e) {
      throw SchemaBeyondLimits("the pattern " + compact(pattern_) + " could not be evaluated: " + e.what());
    }
    if (found == RegexFind::TooCostly)
      throw SchemaBeyondLimits("the pattern " + compact(pattern_) + " is too costly to check on a string of " +
                               std::to_string(subject.size()) + " bytes");
    if (found == RegexFind::BudgetSpent)
      throw SchemaBeyondLimits("the pattern " + compact(pattern_) + " was not checked on a string of " +
                               std::to_string(subject.size()) + " bytes: this check has used up its regex work");
    if (found == RegexFind::Found) return true;
    if (results) results->pushError(context, "does not match the pattern " + compact(pattern_));
    return false;
  }

 private:
  std::string pattern_;
};

class BoundedPatternBuilder : public valijson::ConstraintBuilder {
 public:
  valijson::constraints::Constraint* make(const valijson::adapters::Adapter& value) const override {
    if (!value.isString()) throw std::runtime_error("\"pattern\" must be a string");
    std::string pattern = value.asString();
    // What bounded_regex refuses (back-references, ES2018 syntax std::regex lacks, huge counts)
    // is mostly valid ECMA-262: a limit of ours, not a broken schema.
    try {
      compiled_regex(pattern);
    } catch (const std::regex_error& e) {
      throw SchemaBeyondLimits("the pattern " + compact(pattern) + " cannot be checked: " + e.what());
    }
    return new BoundedPatternConstraint(std::move(pattern));
  }
};

// "multipleOf" under a name valijson does not know. Its own check divides an int64_t unchecked
// (x % 0 and INT64_MIN % -1 raise SIGFPE), truncates a fractional value before dividing by an
// integer (10.5 passed multipleOf 5; 1e300 is undefined behaviour) and reads strings that look
// like numbers ("7" failed multipleOf 5, which says nothing about strings).
constexpr const char* kMultipleOf = "x-mcpspec-multiple-of";

class MultipleOfConstraint : public CopyableConstraint<MultipleOfConstraint> {
 public:
  // `divisor` passed check_multiple_of: a number greater than 0, an integer one at most 2^63-1.
  explicit MultipleOfConstraint(nlohmann::json divisor) : divisor_(std::move(divisor)) {}

  bool validate(const valijson::adapters::Adapter& target, const std::vector<std::string>& context,
                valijson::ValidationResults* results) const override {
    if (!target.isInteger() && !target.isDouble()) return true;
    bool multiple = false;
    if (target.isInteger() && divisor_.is_number_integer()) {
      // Exact. An integer value fits an int64_t here: check_value_within_limits refused larger ones.
      multiple = target.getInteger() % divisor_.get<std::int64_t>() == 0;
    } else {
      const long double value =
          target.isInteger() ? static_cast<long double>(target.getInteger()) : static_cast<long double>(target.getDouble());
      // fmod is exact, so an integer divisor leaves no doubt. A fractional one (0.1) has no exact
      // binary form: within a double's epsilon of a multiple counts, as valijson has it.
      multiple = std::fmod(value, divisor_.get<long double>()) == 0 ||
                 (!divisor_.is_number_integer() &&
                  std::fabs(std::remainder(static_cast<double>(value), divisor_.get<double>())) <=
                      std::numeric_limits<double>::epsilon());
    }
    if (multiple) return true;
    if (results) results->pushError(context, "is not a multiple of " + compact(divisor_));
    return false;
  }

 private:
  nlohmann::json divisor_;
};

class MultipleOfBuilder : public valijson::ConstraintBuilder {
 public:
  valijson::constraints::Constraint* make(const valijson::adapters::Adapter& value) const override {
    if (value.isInteger()) return new MultipleOfConstraint(value.getInteger());
    if (value.isDouble()) return new MultipleOfConstraint(value.getDouble());
    throw std::runtime_error("multipleOf must be a number greater than 0");  // check_multiple_of saw to it
  }
};

// A keyword valijson would check its own way moves to the name of our constraint for it.
void move_to_guarded(nlohmann::json& schema, nlohmann::json::iterator keyword, const char* guarded_name) {
  nlohmann::json value = std::move(*keyword);
  schema.erase(keyword);
  schema[guarded_name] = std::move(value);
}

// JSON Schema's own rule; the check above relies on it.
void check_multiple_of(const nlohmann::json& divisor) {
  if (!divisor.is_number() || !(divisor.get<double>() > 0))
    throw std::runtime_error("multipleOf must be a number greater than 0, got " + compact(divisor));
}

bool regex_format(const nlohmann::json& format) {
  return format.is_string() &&
         schema_keywords::contains(schema_keywords::kRegexFormats, format.get_ref<const std::string&>());
}

// How a schema inside another applies to the value the outer one is checked against: to that
// value itself, to some of its parts, or not at all (definitions, unknown keywords).
enum class Applies : unsigned char {
  Never,
  SameValue,      // allOf, anyOf, oneOf, not, if, then, else, dependencies (and a $ref's target)
  EveryItem,      // "items" as one schema
  TupleItem,      // one of "items" as an array: one item each
  ExtraItem,      // "additionalItems"
  ContainsItem,   // "contains": every item
  Property,       // one of "properties": one member each
  ExtraProperty,  // "additionalProperties"
  PropertyName,   // "propertyNames": every member's name
};

// How the schemas under keyword `k` apply (`held` is what the keyword holds).
Applies applies_by(const std::string& k, const nlohmann::json& held) {
  if (k == "allOf" || k == "anyOf" || k == "oneOf" || k == "not" || k == "if" || k == "then" || k == "else" ||
      k == "dependencies")
    return Applies::SameValue;
  if (k == "items") return held.is_array() ? Applies::TupleItem : Applies::EveryItem;
  if (k == "additionalItems") return Applies::ExtraItem;
  if (k == "contains") return Applies::ContainsItem;
  if (k == "properties") return Applies::Property;
  if (k == "additionalProperties") return Applies::ExtraProperty;
  if (k == "propertyNames") return Applies::PropertyName;
  return Applies::Never;
}

// Every object in a schema place, and which schema holds it. A place is a schema, a map from
// names to schemas (a property may be *named* "id"), or data (under const, enum, default,
// examples), which is neither walked nor changed.
struct SchemaGraph {
  std::vector<nlohmann::json*> nodes;
  std::vector<std::vector<std::size_t>> edges;  // to the schemas inside, and to a $ref's target
  // The subset valijson's validator follows without moving into a part of the value: a $ref and
  // the combinators. A cycle of these recurses for ever on any value.
  std::vector<std::vector<std::size_t>> same_value;
  // The schemas inside that apply to parts of the value, and how.
  std::vector<std::vector<std::pair<Applies, std::size_t>>> parts;
  std::unordered_map<const nlohmann::json*, std::size_t> index;
};

SchemaGraph find_schemas(nlohmann::json& doc) {
  enum class Place { Schema, Names };
  struct Pending {
    nlohmann::json* node;
    Place place;
    std::size_t holder;  // index of the schema this value sits in
    Applies applies;     // to the value the holder is checked against
  };
  SchemaGraph g;
  std::vector<Pending> pending{{&doc, Place::Schema, kNone, Applies::Never}};
  while (!pending.empty()) {
    auto [node, place, holder, applies] = pending.back();
    pending.pop_back();
    if (node->is_array()) {
      for (auto& item : *node) pending.push_back({&item, Place::Schema, holder, applies});
      continue;
    }
    if (!node->is_object()) continue;
    if (place == Place::Names) {
      for (auto& member : *node) pending.push_back({&member, Place::Schema, holder, applies});
      continue;
    }
    const std::size_t self = g.nodes.size();
    g.nodes.push_back(node);
    g.edges.emplace_back();
    g.same_value.emplace_back();
    g.parts.emplace_back();
    g.index.emplace(node, self);
    if (holder != kNone) {
      g.edges[holder].push_back(self);
      if (applies == Applies::SameValue)
        g.same_value[holder].push_back(self);
      else if (applies != Applies::Never)
        g.parts[holder].emplace_back(applies, self);
    }
    for (auto it = node->begin(); it != node->end(); ++it) {
      const std::string& k = it.key();
      if (data_keyword(k) || base_uri_keyword(k)) continue;
      pending.push_back({&it.value(), names_keyword(k) ? Place::Names : Place::Schema, self, applies_by(k, it.value())});
    }
  }
  return g;
}

// The schema a node's "$ref" points at (nullptr: none, or nothing there).
const nlohmann::json* ref_target(const nlohmann::json& doc, const nlohmann::json& node) {
  auto ref = node.find("$ref");
  if (ref == node.end() || !ref->is_string()) return nullptr;
  const auto& text = ref->get_ref<const std::string&>();
  if (!text.empty() && text[0] != '#')
    throw SchemaBeyondLimits("$ref " + compact(*ref) + ": only references inside the schema (\"#/...\") are supported");
  try {
    nlohmann::json::json_pointer ptr(text.empty() ? "" : text.substr(1));
    return doc.contains(ptr) ? &doc.at(ptr) : nullptr;
  } catch (const nlohmann::json::exception&) {
    throw SchemaBeyondLimits("$ref " + compact(*ref) + " is not a JSON Pointer (\"#/...\") into the schema");
  }
}

// Adds an edge for each $ref and refuses references that land on no schema or only on
// themselves.
void add_references(const nlohmann::json& doc, SchemaGraph& g) {
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const nlohmann::json* node = g.nodes[i];
    if (!node->contains("$ref")) continue;
    std::vector<const nlohmann::json*> chain{node};
    for (const nlohmann::json* next = ref_target(doc, *node); next && next->is_object(); next = ref_target(doc, *next)) {
      auto found = g.index.find(next);
      if (found == g.index.end())
        throw std::runtime_error("$ref " + compact(node->at("$ref")) +
                                 " leads to a value that is not a schema (data under const, enum, default or examples, "
                                 "a map of properties or definitions, or an id)");
      if (chain.size() == 1) {
        g.edges[i].push_back(found->second);
        g.same_value[i].push_back(found->second);
      }
      if (std::find(chain.begin(), chain.end(), next) != chain.end())
        throw std::runtime_error("$ref " + compact(node->at("$ref")) + " only leads back to itself");
      chain.push_back(next);
    }
  }
}

// An upper bound on how many schemas valijson holds on its stack at once. It parses each schema
// once, so its recursion follows a path that visits no schema twice; such a path spends at most
// all of a strongly connected group of schemas before it leaves the group for good. So: the
// longest path through the groups, each weighing its size (Tarjan's algorithm, without recursion,
// since the graph can be as deep as the document).
std::size_t nesting_bound(const SchemaGraph& g) {
  const std::size_t n = g.nodes.size();
  std::vector<std::size_t> order(n, kNone), low(n, 0), group(n, kNone), stack;
  std::vector<std::size_t> group_size;
  Walk calls;
  std::size_t counter = 0;
  for (std::size_t start = 0; start < n; ++start) {
    if (order[start] != kNone) continue;
    auto enter = [&](std::size_t v) {
      order[v] = low[v] = counter++;
      stack.push_back(v);
      calls.emplace_back(v, 0);
    };
    enter(start);
    while (!calls.empty()) {
      const auto [v, w] = next_edge(calls, g.edges);
      if (w != kNone) {
        if (order[w] == kNone)
          enter(w);
        else if (group[w] == kNone)
          low[v] = std::min(low[v], order[w]);
        continue;
      }
      if (!calls.empty()) low[calls.back().first] = std::min(low[calls.back().first], low[v]);
      if (low[v] != order[v]) continue;
      std::size_t size = 0, member = kNone;
      do {
        member = stack.back();
        stack.pop_back();
        group[member] = group_size.size();
        ++size;
      } while (member != v);
      group_size.push_back(size);
    }
  }
  // Groups come out with every group they lead to before them.
  std::vector<std::vector<std::size_t>> members(group_size.size());
  for (std::size_t v = 0; v < n; ++v) members[group[v]].push_back(v);
  std::vector<std::size_t> longest(group_size.size(), 0);
  std::size_t bound = 0;
  for (std::size_t c = 0; c < group_size.size(); ++c) {
    std::size_t after = 0;
    for (std::size_t v : members[c])
      for (std::size_t w : g.edges[v])
        if (group[w] != c) after = std::max(after, longest[group[w]]);
    longest[c] = group_size[c] + after;
    bound = std::max(bound, longest[c]);
  }
  return bound;
}

// The schemas in an order where every schema comes after those it applies to the same value
// (children first). A cycle of same_value edges ({"allOf": [{"$ref": "#"}]}) is refused, since
// valijson would follow it for ever.
std::vector<std::size_t> same_value_order(const SchemaGraph& g) {
  const std::size_t n = g.nodes.size();
  enum class Mark : unsigned char { New, Open, Done };
  std::vector<Mark> mark(n, Mark::New);
  std::vector<std::size_t> order;
  order.reserve(n);
  Walk calls;
  for (std::size_t start = 0; start < n; ++start) {
    if (mark[start] != Mark::New) continue;
    mark[start] = Mark::Open;
    calls.emplace_back(start, 0);
    while (!calls.empty()) {
      const auto [v, w] = next_edge(calls, g.same_value);
      if (w != kNone) {
        if (mark[w] == Mark::Open)
          throw std::runtime_error("a schema applies itself to the same value again through $ref and "
                                   "allOf/anyOf/oneOf/not/if/then/else/dependencies, without moving into a part "
                                   "of it (an endless loop)");
        if (mark[w] == Mark::New) {
          mark[w] = Mark::Open;
          calls.emplace_back(w, 0);
        }
        continue;
      }
      mark[v] = Mark::Done;
      order.push_back(v);
    }
  }
  return order;
}

// The most schemas on one path of same_value edges, counting those for which `counts` holds.
template <typename Counts>
std::size_t longest_same_value_path(const SchemaGraph& g, const std::vector<std::size_t>& order, Counts counts) {
  std::vector<std::size_t> longest(g.nodes.size(), 0);
  std::size_t bound = 0;
  for (std::size_t v : order) {
    for (std::size_t next : g.same_value[v]) longest[v] = std::max(longest[v], longest[next]);
    longest[v] += counts(v) ? 1 : 0;
    bound = std::max(bound, longest[v]);
  }
  return bound;
}

// Which of count_applications' four slots a part-applying schema fills.
std::size_t slot_of(Applies how) {
  switch (how) {
    case Applies::ContainsItem:
      return 1;
    case Applies::Property:
    case Applies::ExtraProperty:
      return 2;
    case Applies::PropertyName:
      return 3;
    default:  // EveryItem, TupleItem, ExtraItem (parts holds no others)
      return 0;
  }
}

// Adds with a ceiling: the counts below grow exponentially on the schemas they are there to catch.
std::uint64_t add_capped(std::uint64_t a, std::uint64_t b) { return std::min(kMaxSchemaWork, a + b); }

// applications[k]: an upper bound on how many schemas one part of a value, k levels below the
// value a schema of this document is applied to, has applied to it. Level by level: a schema
// applied to a part applies its same-value schemas to it too (all of them: an upper bound on
// anyOf, which stops at the first that holds), and to each part of that part the most that can
// land on one (one property's schema or additionalProperties; one tuple item's, "items" or
// additionalItems, plus "contains").
//
// Counted for the document's root, or for whichever schema of it is the most costly.
// It stops once nothing applies at a level (nor deeper), a level repeats the one before it (every
// level after does too: `steady`), reaches the ceiling, or passes `max_depth`.
void count_applications(const SchemaGraph& g, const std::vector<std::size_t>& order, SchemaEntry entry,
                        std::size_t max_depth, SchemaBounds& bounds) {
  const std::size_t n = g.nodes.size();
  std::vector<std::uint64_t> prev(n, 0), cur(n, 0);
  for (std::size_t level = 0; level <= max_depth; ++level) {
    for (std::size_t v : order) {  // same-value schemas first
      // The most that lands on one part of the part through each slot: its own item schema
      // (items, a tuple's, additionalItems), contains, its property's (or additionalProperties),
      // propertyNames.
      std::uint64_t slot[4] = {0, 0, 0, 0};
      std::uint64_t item = 1;  // level 0: the schema itself
      if (level > 0) {
        for (const auto& [how, part] : g.parts[v]) slot[slot_of(how)] = std::max(slot[slot_of(how)], prev[part]);
        item = std::max(add_capped(slot[0], slot[1]), add_capped(slot[2], slot[3]));
      }
      for (std::size_t same : g.same_value[v]) item = add_capped(item, cur[same]);
      cur[v] = item;
    }
    const std::uint64_t most =
        n == 0 ? 0 : entry == SchemaEntry::Root ? cur[0] : *std::max_element(cur.begin(), cur.end());
    if (level > 0 && cur == prev) {
      bounds.steady = true;
      return;
    }
    bounds.applications.push_back(most);
    if (most == 0 || most >= kMaxSchemaWork) return;
    std::swap(prev, cur);
  }
}

// valijson reads every integer as an int64_t, so one above 2^63-1 in a schema (a bound, a count, a
// const, a multipleOf) would be read as a negative number: maxLength 2^64-1 was refused as
// negative, minimum 2^64-1 let 5 pass. Annotations it never reads (default, examples) may hold
// any number.
void refuse_integers_above_int64(const SchemaGraph& g) {
  for (const nlohmann::json* node : g.nodes) {
    if (!node->is_object()) continue;
    std::vector<const nlohmann::json*> pending;
    for (auto it = node->begin(); it != node->end(); ++it)
      if (it.key() != "default" && it.key() != "examples") pending.push_back(&it.value());
    while (!pending.empty()) {
      const nlohmann::json* v = pending.back();
      pending.pop_back();
      if (g.index.count(v)) continue;  // a schema of its own: walked in turn
      if (v->is_number_unsigned() && v->get<std::uint64_t>() > kInt64Max)
        throw SchemaBeyondLimits("the schema holds the integer " + v->dump() +
                                 ", above 2^63-1, which the schema validator would read as a negative number");
      if (v->is_structured())
        for (const auto& part : *v) pending.push_back(&part);
    }
  }
}

}  // namespace

SchemaBounds prepare_schema_for_valijson(nlohmann::json& doc, SchemaEntry entry) {
  SchemaGraph g = find_schemas(doc);
  add_references(doc, g);
  const std::size_t nesting = nesting_bound(g);
  if (nesting > kMaxSchemaNesting)
    throw SchemaBeyondLimits("schemas nested up to " + std::to_string(nesting) + " deep (following $ref); at most " +
                             std::to_string(kMaxSchemaNesting) + " are supported");
  const std::vector<std::size_t> order = same_value_order(g);
  SchemaBounds bounds;
  bounds.per_value = longest_same_value_path(g, order, [](std::size_t) { return true; });
  // valijson copies the errors under an anyOf, a oneOf or an if/then/else up into its caller's.
  bounds.copying_per_value = longest_same_value_path(g, order, [&](std::size_t v) {
    return g.nodes[v]->contains("anyOf") || g.nodes[v]->contains("oneOf") || g.nodes[v]->contains("if");
  });
  // A value nested deeper than this is refused by the stack bound anyway.
  count_applications(g, order, entry, kMaxValidationNesting / std::max<std::size_t>(bounds.per_value, 1), bounds);
  refuse_integers_above_int64(g);
  for (const nlohmann::json* node : g.nodes) {
    auto pp = node->find("patternProperties");
    if (pp != node->end() && pp->is_object() && !pp->empty())
      throw SchemaBeyondLimits("patternProperties is not supported: valijson matches it with a backtracking regex "
                               "(exponential time, or a stack overflow on a long property name)");
    if (auto it = node->find("multipleOf"); it != node->end()) check_multiple_of(*it);
    for (const char* key : {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "const",
                            "enum", "uniqueItems"})
      bounds.compares_numbers = bounds.compares_numbers || node->contains(key);
  }
  // Safe to change now: no schema lies inside an "id" value (those are not walked, and a
  // reference into one was refused), a "pattern" or "format" value is a string and a
  // "multipleOf" value a number.
  for (nlohmann::json* node : g.nodes) {
    for (const char* key : {"id", "$id"}) node->erase(key);
    // "" is the document itself, as "#" is; without a base URI valijson takes "" for a remote
    // document and refuses a valid schema.
    if (auto it = node->find("$ref"); it != node->end() && it->is_string() && it->get_ref<const std::string&>().empty())
      *it = "#";
    if (auto it = node->find("pattern"); it != node->end() && it->is_string()) move_to_guarded(*node, it, kBoundedPattern);
    if (auto it = node->find("format"); it != node->end() && regex_format(*it)) node->erase(it);
    if (auto it = node->find("multipleOf"); it != node->end()) move_to_guarded(*node, it, kMultipleOf);
  }
  return bounds;
}

PatternBudgetScope::PatternBudgetScope(RegexBudget* budget) : previous_(pattern_budget) { pattern_budget = budget; }
PatternBudgetScope::~PatternBudgetScope() { pattern_budget = previous_; }

void add_guarded_keywords(valijson::SchemaParser& parser) {
  parser.addConstraintBuilder(kBoundedPattern, new BoundedPatternBuilder());
  parser.addConstraintBuilder(kMultipleOf, new MultipleOfBuilder());
}

ValueCost check_value_within_limits(const SchemaBounds& bounds, const nlohmann::json& value) {
  // One pass without recursion over every part of the value: its depth (a scalar is 0, a
  // container one more than its deepest part) and what each part costs at its level.
  auto applied_at = [&](std::size_t level) -> std::uint64_t {
    if (level < bounds.applications.size()) return bounds.applications[level];
    return bounds.steady && !bounds.applications.empty() ? bounds.applications.back() : 0;
  };
  std::size_t depth = 0;
  ValueCost cost;
  std::vector<std::pair<const nlohmann::json*, std::size_t>> pending{{&value, 0}};
  while (!pending.empty()) {
    auto [node, level] = pending.back();
    pending.pop_back();
    if (bounds.compares_numbers && node->is_number_unsigned() && node->get<std::uint64_t>() > kInt64Max)
      throw SchemaBeyondLimits("the value holds the integer " + node->dump() +
                               ", above 2^63-1, which the schema validator would compare as a negative number");
    // Each application may record an error; each error carries a path as long as its level and
    // is copied once per anyOf/oneOf/if above it, up to copying_per_value on every level.
    const std::uint64_t applied = applied_at(level);
    const std::uint64_t path = level + 1;
    const std::uint64_t copies = 1 + bounds.copying_per_value * path;
    cost.decide = add_capped(cost.decide, applied);
    cost.explain = add_capped(cost.explain, applied > kMaxSchemaWork / (path * copies) ? kMaxSchemaWork
                                                                                     : applied * path * copies);
    if (!node->is_structured()) continue;
    depth = std::max(depth, level + 1);
    for (const auto& part : *node) pending.emplace_back(&part, level + 1);
  }
  const std::size_t stack = (depth + 1) * bounds.per_value;
  if (stack > kMaxValidationNesting)
    throw SchemaBeyondLimits("the value is nested " + std::to_string(depth) + " deep and the schema applies up to " +
                             std::to_string(bounds.per_value) + " schemas at each level: " + std::to_string(stack) +
                             " nested schema applications, at most " + std::to_string(kMaxValidationNesting) +
                             " are supported");
  if (cost.decide >= kMaxSchemaWork)  // the sum is capped there
    throw SchemaBeyondLimits("checking the value could take " + std::to_string(kMaxSchemaWork) +
                             " or more schema applications (the schema applies several of its schemas to each part, "
                             "level after level); fewer are supported");
  return cost;
}

}  // namespace mcpspec
