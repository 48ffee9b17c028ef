// How much work a schema asks of a validator: the subschemas a validation may visit, local `$ref`s
// ("#/...") followed, counted against a budget, so a schema of nested composition keywords cannot
// stall the client (JSD-09). The fault unbounded-schema-walk walks with no budget, as a naive
// validator would.
#pragma once

#include <nlohmann/json.hpp>

namespace testclient {

// Whether walking `schema` visits at most `budget` subschemas (budget < 0: no limit, the walk
// takes as long as the schema makes it).
bool schema_within_budget(const nlohmann::json& schema, long long budget);

}  // namespace testclient
