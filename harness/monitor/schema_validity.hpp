#pragma once
// Whether a JSON Schema a server publishes (a tool's inputSchema or outputSchema, an elicitation's
// requestedSchema) is a valid schema of its dialect (JSD-05, protocol 2026-07-28).
//
// What is judged: a schema that names no dialect ($schema absent) is read as JSON Schema 2020-12
// (JSD-01), one that names 2020-12 as that (JSD-02). Each such schema is checked against mcpspec's
// own description of the 2020-12 keywords (monitor/schemas/json-schema-2020-12-keywords.schema.json,
// applied by valijson): every keyword's value has its kind (a schema, a non-empty list or a map of
// schemas, a type name or a list of distinct type names, a whole number zero or more, a list of
// distinct names, ...), through every subschema. What is not judged: schemas that name another
// dialect (draft-07 and older, 2019-09, an unknown URI; a server may publish them), whether a
// string is a URI or a regular expression, whether a $ref resolves, and vocabularies a $schema of
// its own defines.
#include "harness/monitor/finding.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace mcpspec::monitor {

// Whether mcpspec judges `schema` as 2020-12: it names no $schema, or names 2020-12.
bool judged_as_2020_12(const nlohmann::json& schema);

// Why `schema` is not a valid 2020-12 schema ("at /properties/a/type: ..."), or nothing when it is,
// when it is not judged as 2020-12 (above), or when mcpspec cannot decide within its limits.
std::optional<std::string> invalid_2020_12(const nlohmann::json& schema);

// A complete tools/list result: every tool's inputSchema has type object at its root and is valid
// 2020-12, and so is its outputSchema (JSD-05). At most one finding per tool, five in all.
Findings judge_tool_schemas(const nlohmann::json& result);

}  // namespace mcpspec::monitor
