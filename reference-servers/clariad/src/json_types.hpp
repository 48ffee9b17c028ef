#pragma once
// Two JSON flavours on purpose: input is parsed into nlohmann::json (std::map objects, so a
// hostile line with many keys parses in n log n), output is built as ordered_json so that
// responses keep the field order shown in the Clariad document and stay byte-for-byte stable.
#include <nlohmann/json.hpp>

namespace clariad {
using Json = nlohmann::json;
using OJson = nlohmann::ordered_json;

// Ids and other small values cross from input to output; they are tiny, so a round trip is fine.
inline OJson to_ordered(const Json& value) { return OJson::parse(value.dump()); }
}  // namespace clariad
