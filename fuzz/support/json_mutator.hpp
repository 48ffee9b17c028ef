#pragma once
// The structure-aware half of the custom mutator: parse the input as JSON (the whole input, or
// each newline-delimited frame of it), change it the way a broken or hostile MCP peer would, and
// write it back. Free of libFuzzer symbols so the regression build and mutator_check can use it;
// mutator_hooks.cpp wires it into LLVMFuzzerCustomMutator.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace mcpspec::fuzz {

// Every kind of change, so mutator_check can prove each one is reachable.
enum class Mutation {
  MethodSwap,      // method := another known method (any version) or a near miss
  IdGame,          // id := string/number twin, null, huge, fractional, object, removed, added
  BoundaryNumber,  // a number := INT64_MAX, -0.0, 1e308, a JSON-RPC error code ...
  TypeSwap,        // a value := one of another JSON type
  DeepNest,        // a value wrapped in many arrays/objects
  DropMember,      // an object member removed
  AddMember,       // an MCP member name (or matcher operator) added with a random value
  JsonrpcGame,     // "jsonrpc" := "1.0", 2.0, "2.0 ", removed
  ParamsGame,      // params/result := array, null, string, {} or with _meta added
  EnvelopeSwap,    // request <-> response <-> notification, or result and error both present
  BatchGame,       // wrap in a batch array, unwrap one, empty batch
  StringGame,      // a string := escapes, placeholders, regex bombs, long text
  SchemaGame,      // a value := a small JSON Schema, or an object gains a schema keyword
  RegexGame,       // a string := a pattern of regex syntax, or a piece of it spliced in
  CopySubtree,     // a subtree duplicated somewhere else in the document
  InvalidUtf8,     // text level: invalid UTF-8 bytes inside a string literal
  DuplicateKey,    // text level: a member written twice
  Truncate,        // text level: cut short (a partial frame)
  FrameGame,       // multi-line input: lines duplicated, dropped, swapped, joined, split, blank, CR
  kCount
};
const char* mutation_name(Mutation m);

class JsonMutator {
 public:
  explicit JsonMutator(unsigned seed) : rng_(seed) {}

  // A mutated copy of `input`, at most `max_size` bytes; nullopt when no part of the input is
  // JSON (the caller falls back to byte mutation) or the result would not fit.
  std::optional<std::string> mutate(std::string_view input, std::size_t max_size);
  // A subtree of `other` grafted into `input`; nullopt unless both parse.
  std::optional<std::string> cross_over(std::string_view input, std::string_view other, std::size_t max_size);

  // One structural change to a parsed value (public for mutator_check).
  void mutate_value(nlohmann::json& value, Mutation m);
  Mutation last() const { return last_; }

 private:
  std::size_t below(std::size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
  bool chance(unsigned one_in) { return below(one_in) == 0; }
  Mutation pick_structural();
  nlohmann::json random_value(int depth = 0);
  nlohmann::json random_schema(int depth = 0);
  // The shape of value a JSON Schema keyword takes: the vocabulary list it was picked from.
  enum class SchemaShape { Subschema, SchemaList, SchemaMap, Number, Other };
  struct SchemaKeyword {
    const std::string& name;
    SchemaShape shape;
  };
  SchemaKeyword random_schema_keyword();
  nlohmann::json schema_keyword_value(const SchemaKeyword& picked, int depth);
  std::string random_regex();
  std::string mutate_text(std::string text, std::size_t max_size);
  std::optional<std::string> mutate_lines(std::string_view input, std::size_t max_size);

  std::mt19937 rng_;
  Mutation last_ = Mutation::TypeSwap;
};

// The text cut at every '\n': n newlines give n + 1 pieces (the last one empty when the text ends
// with a newline, and the only one when it has none).
std::vector<std::string> split_lines(std::string_view text);

// Whether parse_json() would give a value, found without building it.
bool is_json(std::string_view text);
// Parses without throwing and without recursing deeper than the nlohmann serializer can take.
std::optional<nlohmann::json> parse_json(std::string_view text);

}  // namespace mcpspec::fuzz
