#pragma once
// Mutations of one message. JSON-level ones keep it JSON (boundary numbers, wrong types, huge and
// deeply nested values, odd strings, id and method games); byte-level ones break it (truncation,
// invalid UTF-8, duplicate keys, trailing garbage). Each returns a short name for reports.
#include "harness/fuzz/rng.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace mcpspec::fuzz {

// Ids the target answered recently, so an id game can reuse one.
struct IdPool {
  std::vector<nlohmann::json> recent;
  void add(const nlohmann::json& id) {
    if (recent.size() < 64) recent.push_back(id);
    else recent[static_cast<std::size_t>(id.is_number_integer() ? id.get<long long>() & 63 : 0)] = id;
  }
};

// Changes `message` in place. Some mutations produce text that cannot be held as a JSON value
// (nesting deeper than we want to build as objects): then `bytes` is set and wins over `message`.
std::string mutate_json(nlohmann::json& message, std::string& bytes, Rng& rng, const IdPool& ids);
// Gives one value inside tool arguments a boundary value of its own type (long or odd strings,
// extreme numbers, huge containers): the schema-aware counterpart of mutate_json, aimed at the
// payload a tool really reads rather than anywhere in the envelope.
std::string mutate_argument(nlohmann::json& args, Rng& rng);
// Changes the serialized message `bytes` so that it is no longer (valid) JSON, or odd JSON text.
std::string mutate_bytes(std::string& bytes, Rng& rng);
// `depth` nested arrays (or objects) around a number, as text.
std::string deep_text(std::size_t depth, bool objects);

}  // namespace mcpspec::fuzz
