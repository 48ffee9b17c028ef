// match(): walks a (checked) matcher over a value and explains every place where they disagree.
// Operator arguments are trusted here because match() runs check_matcher() first.
#include "harness/scenario/matcher.hpp"
#include "harness/jsonschema/compiled_schema.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <regex>
#include <stdexcept>
#include <unordered_map>

#include "harness/util/string_formats.hpp"
#include "harness/scenario/matcher_ops.hpp"
#include "harness/util/bounded_regex.hpp"
#include "harness/scenario/matcher_values.hpp"

namespace mcpspec::scenario {

using nlohmann::json;

namespace {

using detail::child_pointer;
using detail::compare_numbers;
using detail::show;

// Where the value under test sits. A missing object member has no value, so its mismatch is
// reported against the object that lacks it ("/result: missing key \"tools\"").
struct Loc {
  std::string ptr;
  bool member = false;  // an object member (only members can be absent)
  std::string parent;   // pointer of the holding object, when member
  std::string key;      // member name, when member

  Loc child(const std::string& name) const { return Loc{child_pointer(ptr, name), true, ptr, name}; }
  Loc element(std::size_t i) const { return Loc{child_pointer(ptr, i), false, {}, {}}; }
};

bool has_type(const std::string& name, const json& v) {
  if (name == "string") return v.is_string();
  if (name == "number") return v.is_number();
  if (name == "object") return v.is_object();
  if (name == "array") return v.is_array();
  if (name == "boolean") return v.is_boolean();
  if (name == "null") return v.is_null();
  if (name == "integer") {
    // JSON has one number type: 1.0 is an integer, as in JSON Schema.
    if (v.is_number_integer()) return true;
    if (!v.is_number_float()) return false;
    double d = v.get<double>();
    return std::isfinite(d) && std::trunc(d) == d;
  }
  return false;
}

// Operators that can pass when the member is absent; all others need a value.
bool accepts_absence(const std::string& op) {
  return op == "$absent" || op == "$not" || op == "$anyOf" || op == "$allOf" || op == "$in";
}

// Three answers, not two: a check mcpspec cannot make (a $regex too costly on the string, a
// $conformsTo schema beyond its limits) is Undecided. Read as a mismatch it would FAIL a target
// that may be right, and under $not it would PASS one that may be wrong. Undecided combines like
// unknown in three-valued logic: all-of is a mismatch if any part is, else undecided if any part
// is; any-of matches if any option does, else undecided if any option is; $not keeps it.
enum class Answer { Match, Mismatch, Undecided };

class Evaluator {
 public:
  // A probe only answers "does it match" (for $anyOf, $in, $not, ...): it records no mismatch
  // lines and stops at the first mismatch. It does keep the reasons for an undecided answer.
  // All evaluators of one match() share `budget`: a matcher's regexes and schema checks together
  // stay bounded.
  Evaluator(bool probe, ValidationBudget& budget) : probe_(probe), budget_(budget) {}

  void eval(const json& m, const json* v, const Loc& loc, int depth) {
    if (depth > detail::kMaxMatcherDepth)
      throw MatcherError(loc.ptr, "matcher nested deeper than " + std::to_string(detail::kMaxMatcherDepth) +
                                      " levels");
    if (detail::is_operator_object(m)) return eval_operators(m, v, loc, depth);
    if (!v) return fail_missing(loc, "");
    if (m.is_object()) return eval_object(m, *v, loc, depth);
    if (m.is_array()) return eval_array(m, *v, loc, depth);
    bool same = m.is_number() ? v->is_number() && compare_numbers(m, *v) == std::partial_ordering::equivalent
                              : m == *v;
    if (!same) fail(loc.ptr, "expected " + show(m) + ", got " + show(*v));
  }

  bool failed() const { return failed_; }
  bool truncated() const { return truncated_; }
  std::vector<std::string>& lines() { return lines_; }
  std::vector<std::string>& undecided_lines() { return undecided_; }
  json& captured() { return captured_; }

 private:
  bool stop() const { return probe_ ? failed_ : truncated_; }

  void fail(const std::string& ptr, const std::string& text) {
    failed_ = true;
    if (probe_) return;
    std::string line = detail::pointer_label(ptr) + ": " + text;
    // Several operators in one object can each notice the same missing key.
    if (!lines_.empty() && lines_.back() == line) return;
    if (lines_.size() < detail::kMaxMismatches)
      lines_.push_back(std::move(line));
    else
      truncated_ = true;
  }

  // A check that could not be made. Never stops the walk: a later mismatch still decides.
  void cannot(const std::string& ptr, const std::string& text) {
    add_undecided(detail::pointer_label(ptr) + ": " + text);
  }
  void add_undecided(std::string line) {
    if (undecided_.size() < detail::kMaxMismatches &&
        std::find(undecided_.begin(), undecided_.end(), line) == undecided_.end())
      undecided_.push_back(std::move(line));
  }

  void fail_missing(const Loc& loc, const std::string& expected) {
    std::string suffix = expected.empty() ? "" : " (expected " + expected + ")";
    if (loc.member)
      fail(loc.parent, "missing key " + show(json(loc.key)) + suffix);
    else
      fail(loc.ptr, "missing value" + suffix);  // unreachable: only members can be absent
  }

  // Runs `m` on its own; on a match keeps its captures unless told not to. An undecided answer
  // leaves its reasons in `why`.
  Answer probe(const json& m, const json* v, const Loc& loc, int depth, std::vector<std::string>& why,
               bool keep_captures = true) {
    Evaluator sub(true, budget_);
    sub.eval(m, v, loc, depth);
    if (sub.failed_) return Answer::Mismatch;
    if (!sub.undecided_.empty()) {
      for (auto& line : sub.undecided_)
        if (why.size() < detail::kMaxMismatches) why.push_back(std::move(line));
      return Answer::Undecided;
    }
    if (keep_captures) captured_.update(sub.captured_);
    return Answer::Match;
  }

  // What an any-of concluded with no option matching: undecided if one was, else a mismatch.
  void none_matched(std::vector<std::string>& why, const Loc& loc, const std::string& expected, const json* v) {
    if (!why.empty()) {
      for (auto& line : why) add_undecided(std::move(line));
      return;
    }
    if (!v) return fail_missing(loc, expected);
    fail(loc.ptr, "expected " + expected + ", got " + show(*v));
  }

  void eval_object(const json& m, const json& v, const Loc& loc, int depth) {
    if (!v.is_object()) return fail(loc.ptr, "expected an object, got " + show(v));
    for (auto it = m.begin(); it != m.end() && !stop(); ++it) {
      auto found = v.find(it.key());
      eval(it.value(), found == v.end() ? nullptr : &*found, loc.child(it.key()), depth + 1);
    }
  }

  void eval_array(const json& m, const json& v, const Loc& loc, int depth) {
    if (!v.is_array()) return fail(loc.ptr, "expected an array, got " + show(v));
    if (m.size() != v.size())
      return fail(loc.ptr, "expected an array of " + std::to_string(m.size()) + " elements, got " +
                               std::to_string(v.size()) + " elements: " + show(v));
    for (std::size_t i = 0; i < m.size() && !stop(); ++i) eval(m[i], &v[i], loc.element(i), depth + 1);
  }

  void eval_operators(const json& m, const json* v, const Loc& loc, int depth) {
    if (!v) {
      bool any = false;
      for (auto it = m.begin(); it != m.end(); ++it) any = any || accepts_absence(it.key());
      if (!any) return fail_missing(loc, "");
    }
    for (auto it = m.begin(); it != m.end() && !stop(); ++it) eval_operator(it.key(), it.value(), v, loc, depth);
  }

  void eval_operator(const std::string& op, const json& arg, const json* v, const Loc& loc, int depth) {
    if (op == "$absent") {
      if (!v) return;
      if (loc.member) return fail(loc.ptr, "expected key to be absent, got " + show(*v));
      return fail(loc.ptr, "expected no value ($absent only applies to object members), got " + show(*v));
    }
    if (op == "$not") {
      std::vector<std::string> why;
      Answer inner = probe(arg, v, loc, depth + 1, why, false);
      if (inner == Answer::Mismatch) return;
      if (inner == Answer::Undecided) {
        for (auto& line : why) add_undecided(std::move(line));
        return;
      }
      if (!v) return fail_missing(loc, "a value not matching " + show(arg));
      return fail(loc.ptr, "expected a value not matching " + show(arg) + ", got " + show(*v));
    }
    if (op == "$anyOf" || op == "$in") {
      std::vector<std::string> why;
      for (const auto& option : arg)
        if (probe(option, v, loc, depth + 1, why) == Answer::Match) return;
      return none_matched(why, loc, (op == "$in" ? "one of " : "any of ") + show(arg), v);
    }
    if (op == "$allOf") {
      for (std::size_t i = 0; i < arg.size() && !stop(); ++i) eval(arg[i], v, loc, depth + 1);
      return;
    }
    if (!v) return fail_missing(loc, "");
    const json& value = *v;
    if (op == "$any") return;
    if (op == "$capture") {
      captured_[arg.get<std::string>()] = value;
      return;
    }
    if (op == "$type") return eval_type(arg, value, loc);
    if (op == "$regex") return eval_regex(arg.get<std::string>(), value, loc);
    if (op == "$contains") return eval_contains(arg, value, loc, depth);
    if (op == "$each") {
      if (!value.is_array()) return fail(loc.ptr, "expected an array ($each), got " + show(value));
      for (std::size_t i = 0; i < value.size() && !stop(); ++i)
        eval(arg, &value[i], loc.element(i), depth + 1);
      return;
    }
    if (op == "$len") return eval_len(arg, value, loc, depth);
    if (op == "$gt" || op == "$gte" || op == "$lt" || op == "$lte") return eval_compare(op, arg, value, loc);
    if (op == "$eq") return eval_exactly(arg, value, loc.ptr, 0);
    if (op == "$exact") {
      if (!value.is_object()) return fail(loc.ptr, "expected an object, got " + show(value));
      eval_object(arg, value, loc, depth + 1);
      for (auto it = value.begin(); it != value.end() && !stop(); ++it)
        if (!arg.contains(it.key())) fail(loc.ptr, "unexpected key " + show(json(it.key())));
      return;
    }
    if (op == "$increasing" || op == "$unique") return eval_sequence(op, arg.get<std::string>(), value, loc);
    if (op == "$base64" || op == "$uri") {
      if (!value.is_string())
        return fail(loc.ptr, std::string("expected a ") + (op == "$uri" ? "URI" : "base64") + " string, got " +
                                 show(value));
      const auto& s = value.get_ref<const std::string&>();
      std::string problem = op == "$uri" ? util::uri_problem(s) : util::base64_problem(s);
      if (!problem.empty())
        fail(loc.ptr, std::string("expected a ") + (op == "$uri" ? "URI" : "base64 string") + ", got " + show(value) +
                          " (" + problem + ")");
      return;
    }
    if (op == "$conformsTo") {
      // A schema from the target itself (e.g. a tool's outputSchema): compiled per use; they are small.
      try {
        // Validated with draft-07 semantics whatever "$schema" declares (documented); the key is
        // dropped so the validator does not refuse a 2020-12 declaration.
        json doc = arg.is_boolean() ? json(arg.get<bool>() ? json::object() : json{{"not", json::object()}}) : arg;
        doc.erase("$schema");
        CompiledSchema schema(doc);
        for (const auto& issue : schema.validate(value, 3, &budget_))
          fail(issue.pointer.empty() ? loc.ptr : loc.ptr + issue.pointer,
               "does not conform to the given schema: " + issue.message);
      } catch (const SchemaBeyondLimits& e) {
        cannot(loc.ptr, std::string("cannot check against the given schema: ") + e.what());
      } catch (const std::exception& e) {
        // Broken whoever checks it (a $ref to nothing, a schema that applies itself for ever).
        fail(loc.ptr, std::string("the given schema is not usable: ") + e.what());
      }
      return;
    }
    // check_matcher() rejects unknown operators before evaluation starts.
    throw MatcherError(child_pointer(loc.ptr, op), "unknown operator " + op);
  }

  void eval_type(const json& arg, const json& value, const Loc& loc) {
    std::string names;
    for (const auto& name : arg.is_array() ? arg : json::array({arg})) {
      if (has_type(name.get<std::string>(), value)) return;
      names += (names.empty() ? "" : " or ") + name.get<std::string>();
    }
    fail(loc.ptr, "expected type " + names + ", got " + show(value));
  }

  void eval_regex(const std::string& pattern, const json& value, const Loc& loc) {
    const std::string shown = show(json(pattern));
    if (!value.is_string()) return fail(loc.ptr, "expected a string matching " + shown + ", got " + show(value));
    const auto& s = value.get_ref<const std::string&>();
    try {
      switch (find_bounded(pattern, s, &budget_.patterns)) {
        case RegexFind::Found:
          return;
        case RegexFind::TooCostly:
          return cannot(loc.ptr, "$regex " + shown + " is too costly on a string of " + std::to_string(s.size()) +
                                   " bytes (pattern size x string length is limited): " + show(value, 60));
        case RegexFind::BudgetSpent:
          return cannot(loc.ptr, "$regex " + shown + " was not run on a string of " + std::to_string(s.size()) +
                                     " bytes: this match has used up its regex work (the sum over all its $regex "
                                     "and pattern checks is limited): " + show(value, 60));
        case RegexFind::NotFound:
          return fail(loc.ptr, "expected a string matching " + shown + ", got " + show(value));
      }
    } catch (const std::regex_error& e) {
      // libstdc++ gives up on some pattern/input pairs (error_complexity, error_stack).
      cannot(loc.ptr, "regex " + shown + " could not be evaluated on " + show(value, 60) + ": " + e.what());
    }
  }

  void eval_contains(const json& arg, const json& value, const Loc& loc, int depth) {
    if (value.is_array()) {
      std::vector<std::string> why;
      for (std::size_t i = 0; i < value.size(); ++i)
        if (probe(arg, &value[i], loc.element(i), depth + 1, why) == Answer::Match) return;
      return none_matched(why, loc, "an array with an element matching " + show(arg), &value);
    }
    if (value.is_string() && arg.is_string()) {
      if (value.get_ref<const std::string&>().find(arg.get_ref<const std::string&>()) == std::string::npos)
        fail(loc.ptr, "expected a string containing " + show(arg) + ", got " + show(value));
      return;
    }
    if (value.is_string())
      return fail(loc.ptr, "expected an array with an element matching " + show(arg) +
                               " (only a string argument searches strings), got " + show(value));
    fail(loc.ptr, "expected an array or a string ($contains), got " + show(value));
  }

  void eval_len(const json& arg, const json& value, const Loc& loc, int depth) {
    std::size_t len = 0;
    if (value.is_array() || value.is_object())
      len = value.size();
    else if (value.is_string())
      len = util::code_point_count(value.get_ref<const std::string&>());
    else
      return fail(loc.ptr, "expected an array, string or object ($len), got " + show(value));
    const json actual(len);
    if (arg.is_number()) {
      if (compare_numbers(arg, actual) != std::partial_ordering::equivalent)
        fail(loc.ptr, "expected length " + show(arg) + ", got length " + std::to_string(len) + ": " + show(value, 80));
      return;
    }
    std::vector<std::string> why;
    Answer a = probe(arg, &actual, loc, depth + 1, why);
    if (a == Answer::Undecided)
      for (auto& line : why) add_undecided(std::move(line));
    if (a == Answer::Mismatch)
      fail(loc.ptr, "expected length matching " + show(arg) + ", got length " + std::to_string(len) + ": " +
                        show(value, 80));
  }

  void eval_compare(const std::string& op, const json& bound, const json& value, const Loc& loc) {
    const char* symbol = op == "$gt" ? ">" : op == "$gte" ? ">=" : op == "$lt" ? "<" : "<=";
    auto order = compare_numbers(value, bound);
    bool ok = op == "$gt"    ? order == std::partial_ordering::greater
              : op == "$gte" ? (order == std::partial_ordering::greater || order == std::partial_ordering::equivalent)
              : op == "$lt"  ? order == std::partial_ordering::less
                             : (order == std::partial_ordering::less || order == std::partial_ordering::equivalent);
    if (!ok) fail(loc.ptr, std::string("expected a number ") + symbol + " " + show(bound) + ", got " + show(value));
  }

  // $eq: the expected value is a literal; report each place where the two differ.
  void eval_exactly(const json& expected, const json& actual, const std::string& ptr, int depth) {
    if (stop()) return;
    if (depth > detail::kMaxValueDepth) return cannot(ptr, "value nested too deep to compare exactly");
    if (expected.is_object() && actual.is_object()) {
      for (auto it = expected.begin(); it != expected.end() && !stop(); ++it) {
        auto found = actual.find(it.key());
        if (found == actual.end())
          fail(ptr, "missing key " + show(json(it.key())) + " (exact match)");
        else
          eval_exactly(it.value(), *found, child_pointer(ptr, it.key()), depth + 1);
      }
      for (auto it = actual.begin(); it != actual.end() && !stop(); ++it)
        if (!expected.contains(it.key())) fail(ptr, "unexpected key " + show(json(it.key())) + " (exact match)");
      return;
    }
    if (expected.is_array() && actual.is_array() && expected.size() == actual.size()) {
      for (std::size_t i = 0; i < expected.size() && !stop(); ++i)
        eval_exactly(expected[i], actual[i], child_pointer(ptr, i), depth + 1);
      return;
    }
    if (!detail::json_equal(expected, actual))
      fail(ptr, "expected exactly " + show(expected) + ", got " + show(actual));
  }

  // $increasing and $unique: a property of the values found at `pointer` in every element.
  void eval_sequence(const std::string& op, const std::string& pointer, const json& value, const Loc& loc) {
    if (!value.is_array()) return fail(loc.ptr, "expected an array (" + op + "), got " + show(value));
    const json::json_pointer where(pointer);
    std::optional<json> previous;
    std::unordered_map<std::string, std::string> seen;  // canonical value -> where it was first
    for (std::size_t i = 0; i < value.size() && !stop(); ++i) {
      const std::string element_ptr = child_pointer(loc.ptr, i);
      const std::string item_ptr = element_ptr + pointer;
      const json* found = pointer.empty() ? &value[i] : nullptr;
      try {
        if (!found && value[i].contains(where)) found = &value[i].at(where);
      } catch (const json::exception&) {
        // An array index too large for size_t ("/99999999999999999999") is simply not there.
      }
      if (!found) {
        fail(element_ptr, "missing " + pointer + " (needed by " + op + ")");
        continue;
      }
      const json& item = *found;
      if (op == "$increasing") {
        if (!item.is_number()) {
          fail(item_ptr, "expected a number ($increasing), got " + show(item));
          continue;
        }
        if (previous && compare_numbers(item, *previous) != std::partial_ordering::greater)
          fail(item_ptr, "expected a number greater than " + show(*previous) + " (strictly increasing), got " +
                             show(item));
        previous = item;
        continue;
      }
      std::string key;
      try {
        key = detail::canonical_key(item);
      } catch (const std::length_error&) {
        cannot(item_ptr, "value nested too deep to compare ($unique)");
        continue;
      }
      auto [it, inserted] = seen.emplace(std::move(key), item_ptr);
      if (!inserted)
        fail(item_ptr, "expected a value unique among the elements, got " + show(item) + " (same as at " +
                           detail::pointer_label(it->second) + ")");
    }
  }

  bool probe_;
  ValidationBudget& budget_;
  bool failed_ = false;
  bool truncated_ = false;
  std::vector<std::string> lines_;
  std::vector<std::string> undecided_;
  json captured_ = json::object();
};

}  // namespace

MatchResult match(const json& matcher, const json& value) {
  detail::check_matcher_tree(matcher, false);
  ValidationBudget budget;
  Evaluator evaluator(false, budget);
  evaluator.eval(matcher, &value, Loc{}, 0);
  MatchResult result;
  result.mismatches = std::move(evaluator.lines());
  // A mismatch decides, whatever could not be checked beside it.
  if (!evaluator.failed()) result.undecided = std::move(evaluator.undecided_lines());
  result.ok = !evaluator.failed() && result.undecided.empty();
  if (evaluator.truncated())
    result.mismatches.push_back("further mismatches not listed (limit " + std::to_string(detail::kMaxMismatches) +
                                ")");
  result.captured = std::move(evaluator.captured());
  return result;
}

}  // namespace mcpspec::scenario
