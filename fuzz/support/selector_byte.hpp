#pragma once
// Targets whose source holds the marker MCPSPEC_FUZZ_SELECTOR_BYTE read their first input byte as
// a choice (which protocol version and sender the rest is validated as, for message_parser) and
// the remaining bytes as the input proper. Choosing per input, instead of repeating the work for
// every choice, makes each execution several times cheaper, and since the choice is a byte of the
// input, libFuzzer keeps an input for the coverage of the choice it made and mutates the two
// separately: the custom mutator (mutator_hooks.cpp) keeps the byte while it changes the JSON
// after it, and changes only the byte now and then.
#include <optional>
#include <string_view>

namespace mcpspec::fuzz {

struct SelectorInput {
  unsigned char selector = 0;
  std::string_view rest;
};

// The selector and the input after it; nullopt for an empty input (nothing to choose or test).
inline std::optional<SelectorInput> split_selector(std::string_view bytes) {
  if (bytes.empty()) return std::nullopt;
  return SelectorInput{static_cast<unsigned char>(bytes.front()), bytes.substr(1)};
}

}  // namespace mcpspec::fuzz
