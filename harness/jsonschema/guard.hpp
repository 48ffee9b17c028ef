#pragma once
// Makes a JSON Schema document safe to give valijson. valijson's schema parser recurses, and
// libFuzzer campaigns found schemas on which it recursed until the stack overflowed. A server's
// tool outputSchema can be any of them, so without this a server could crash mcpspec.
#include "harness/util/bounded_regex.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace valijson {
class SchemaParser;
}

namespace mcpspec {

// The most nested schemas (following $ref) valijson may have to hold on its stack at once. Under
// ASan a chain of 300 nested "items" overflowed an 8 MiB stack; real schemas stay in the tens.
inline constexpr std::size_t kMaxSchemaNesting = 128;

// The most schema applications valijson's validator may have on its stack at once. It recurses
// once per schema it applies: under ASan about 6 000 overflowed an 8 MiB stack, an optimized
// build about 50 000. A 20-level value against a schema applying 10 per level needs 210.
inline constexpr std::size_t kMaxValidationNesting = 2048;

// The schema may well be valid JSON Schema, but mcpspec cannot check a value against it: a limit
// of its own or of valijson (a remote $ref, patternProperties, nesting past the bounds here, a
// pattern its regex engine cannot run or afford). A caller must not read this as "the value does
// not conform" (a server whose schema is fine would FAIL) nor as "it conforms"; a schema that is
// broken whoever checks it (a "$ref" to nothing, one that applies itself for ever) throws a
// plain std::runtime_error instead.
class SchemaBeyondLimits : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The most schema applications mcpspec lets valijson make to check one value, and the most
// error-bookkeeping steps it lets valijson take to say why a value does not conform. Both grow
// with the value: a schema applying two schemas of itself to each item, {"items": {"anyOf":
// [{"$ref": "#"}, {"$ref": "#"}]}, doubles the work per level (a 100-byte value, 30 s and 2 GB);
// a oneOf applying the schema again to each item copies every error below it on every level
// (cubic: a value nested 500 deep, 6 s). In a Release build a schema application takes about
// 50 ns: 2^22 is about 0.2 s. The ASan + UBSan fuzz build takes about 0.8 us (2.5 s for 3 million,
// half the CPU the matcher target allows one input): there 2^19, about 0.4 s.
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
inline constexpr std::uint64_t kMaxSchemaWork = std::uint64_t{1} << 19;
#else
inline constexpr std::uint64_t kMaxSchemaWork = std::uint64_t{1} << 22;
#endif

struct SchemaBounds {
  std::size_t per_value = 0;  // the most schemas applied to one part of a value before a smaller part
  // The most of those that are an anyOf, a oneOf or an if: valijson copies the errors found under
  // one up into the results of its caller.
  std::size_t copying_per_value = 0;
  // applications[k]: the most schemas applied to one part of a value k levels below the checked
  // value (an upper bound, capped at kMaxSchemaWork). Past the end, the last entry repeats if
  // `steady`, else nothing applies there.
  std::vector<std::uint64_t> applications;
  bool steady = false;
  // Some schema compares numbers (minimum, maximum, multipleOf, const, enum, uniqueItems): valijson
  // reads every integer as an int64_t, so one above INT64_MAX compares as a negative number.
  bool compares_numbers = false;
};

// What checking one value against a schema may cost, in the units of kMaxSchemaWork (upper
// bounds): deciding whether it conforms, and collecting the errors that say why not.
struct ValueCost {
  std::uint64_t decide = 0;
  std::uint64_t explain = 0;
};

// Changes `doc` in place, or throws saying what it refuses (SchemaBeyondLimits where the schema
// may be valid, std::runtime_error where it is not):
//  - "id"/"$id" in a schema are dropped (valijson takes them, even true or 5, for a base URI and
//    then re-resolved a reference on every level); only references inside the document are
//    followed, so they change nothing; a "$ref" of "" becomes "#" (the same place, which
//    valijson would otherwise look for in a remote document);
//  - a "$ref" must be a JSON Pointer into the document ("#/definitions/a") that lands on a schema
//    (valijson reads whatever it lands on as one, so data or a map of property names would bring
//    back keywords this walk left alone);
//  - a "$ref" chain that only leads back to itself ({"$ref": "#"}) is refused;
//  - so is a schema nested deeper than kMaxSchemaNesting, counting every path valijson could
//    take through references (a tree whose children $ref the root is fine: each schema is parsed
//    once);
//  - so is a schema that applies itself to the same value again ({"allOf": [{"$ref": "#"}]}),
//    which valijson's validator follows for ever;
//  - valijson matches "pattern" with std::regex's backtracking executor: exponential time on
//    {"pattern": "(a+)+$"} and a stack overflow on a long string. "pattern" is renamed so that
//    the parser set up by add_guarded_keywords checks it with bounded_regex instead;
//    "patternProperties" (matched the same way, on property names) is refused; "format" date,
//    time and date-time (fixed std::regex patterns in valijson, same stack problem) are dropped;
//  - valijson divides by "multipleOf" unchecked, as an int64_t when it is an integer (an unsigned
//    one above INT64_MAX wraps to a negative): 0 and -1 raised SIGFPE (x % 0, INT64_MIN % -1);
//    it truncates a fractional value first (10.5 passed multipleOf 5) and reads numeric strings.
//    A "multipleOf" that is not a number greater than 0 is broken JSON Schema; the others are
//    renamed and checked by a constraint of ours;
//  - valijson reads every integer as an int64_t: a schema holding one above INT64_MAX where
//    valijson reads it (anywhere but "default" and "examples") is beyond limits.
// Values are checked against the document's root, or against any schema in it (by a caller that
// applies its definitions one by one): the bounds on work hold for that.
enum class SchemaEntry { Root, Any };
SchemaBounds prepare_schema_for_valijson(nlohmann::json& doc, SchemaEntry entry = SchemaEntry::Root);

// Teaches a valijson parser the keywords prepare_schema_for_valijson renamed. Use on every parser
// given a prepared document. Its "pattern" check throws SchemaBeyondLimits out of validation when
// the pattern cannot be run or is too costly on the string at hand.
void add_guarded_keywords(valijson::SchemaParser& parser);

// While one exists on a thread, the "pattern" checks that thread runs draw on `budget` (as well as
// each staying under kMaxRegexWork), and throw SchemaBeyondLimits once it is spent. Nested scopes
// restore the outer one.
class PatternBudgetScope {
 public:
  explicit PatternBudgetScope(RegexBudget* budget);
  ~PatternBudgetScope();
  PatternBudgetScope(const PatternBudgetScope&) = delete;
  PatternBudgetScope& operator=(const PatternBudgetScope&) = delete;

 private:
  RegexBudget* previous_;
};

// Throws SchemaBeyondLimits when valijson cannot check `value` against a schema with these bounds:
//  - validating it could nest more than kMaxValidationNesting schema applications ((the value's
//    depth + 1) x bounds.per_value), which would overflow the stack;
//  - deciding whether it conforms could take more than kMaxSchemaWork schema applications;
//  - the schema compares numbers and the value holds an integer above INT64_MAX, which valijson
//    wraps to a negative one (2^64-1 is at least 0 and a multiple of 5; -1 is neither).
// Otherwise returns the cost: a caller validates first without collecting errors (valijson's
// results pointer null), and collects them in a second pass only when `explain` is at most
// kMaxSchemaWork; above, the verdict stands without the details.
ValueCost check_value_within_limits(const SchemaBounds& bounds, const nlohmann::json& value);

}  // namespace mcpspec
