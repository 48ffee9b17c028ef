#pragma once
// Turns a JSON Schema document a user hands us (--schema FILE) into something valijson, which
// understands drafts 4 to 7, validates faithfully — or refuses with a message naming the file,
// the place and the reason. Never lets a schema through that valijson would silently weaken.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace mcpspec::protocol::schema_dialect {

enum class Dialect { Draft04, Draft06, Draft07, Draft2019_09, Draft2020_12 };
const char* dialect_name(Dialect d);

struct Prepared {
  nlohmann::json document;          // rewritten: definitions (not $defs), only local #/ references
  Dialect dialect = Dialect::Draft07;
  bool parse_as_draft4 = false;     // valijson must use its draft-4 rules (exclusiveMinimum etc.)
  std::vector<std::string> notes;   // what was changed, for --verbose output
};

// `origin` names the document in every error (usually the file path).
// Throws std::runtime_error when the document cannot be validated faithfully:
//  * unknown $schema, a schema that is neither an object nor a boolean;
//  * keywords valijson cannot honour (unevaluatedProperties, prefixItems, $dynamicRef,
//    dependentRequired, ...), `items` as an array in 2019-09/2020-12;
//  * a $ref that leaves the file or does not resolve inside it.
// What it rewrites: $defs -> definitions (and #/$defs/ references); in 2019-09/2020-12, a $ref
// with constraint siblings becomes allOf [ref, siblings] (those drafts apply the siblings, draft-07
// would drop them); `format` date/time/date-time is removed because valijson checks those with
// std::regex, which exhausts the stack on very long strings (and 2019-09+ treat format as an
// annotation anyway).
Prepared to_draft07(nlohmann::json document, const std::string& origin);

}  // namespace mcpspec::protocol::schema_dialect
