// Checks the JSON mutator without libFuzzer: run it many times over the hand-written seeds and
// verify it stays within the size limit, keeps structural mutations valid JSON, and reaches
// every mutation kind, and that each kind changed its input at least once. A mutator that
// silently stopped mutating would otherwise go unnoticed: libFuzzer would just fall back to byte
// mutation.
#include "fuzz/support/json_mutator.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using mcpspec::fuzz::Mutation;

namespace {
// The input as values, so that re-serializing (key order, spacing) does not count as a change:
// the whole input as one JSON document, else each line as one (or as text when it is not JSON).
std::string normalized(const std::string& text) {
  if (auto whole = mcpspec::fuzz::parse_json(text)) return whole->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t nl = std::min(text.find('\n', start), text.size());
    std::string line = text.substr(start, nl - start);
    auto v = mcpspec::fuzz::parse_json(line);
    out += (v ? v->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) : line) + "\n";
    start = nl + 1;
  }
  return out;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " <corpus-folder>\n";
    return 2;
  }
  std::vector<std::string> seeds;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(argv[1], ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    // The hand-written seeds only: a campaign's committed corpus (<target>/merged/) holds
    // thousands of inputs the mutator already made, and 40 rounds over them take a minute.
    if (it->is_directory(ec) && it->path().filename() == "merged") {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(ec)) continue;
    std::ifstream in(it->path(), std::ios::binary);
    seeds.emplace_back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  if (seeds.empty()) {
    std::cerr << "error: no seeds under " << argv[1] << "\n";
    return 1;
  }
  std::array<std::size_t, static_cast<std::size_t>(Mutation::kCount)> seen{}, changed{};
  std::size_t produced = 0, declined = 0, failures = 0;
  constexpr std::size_t kMaxSize = 4096;
  for (unsigned round = 0; round < 40; ++round) {
    for (std::size_t i = 0; i < seeds.size(); ++i) {
      mcpspec::fuzz::JsonMutator mutator(round * 7919u + static_cast<unsigned>(i));
      std::string input = seeds[i];
      std::string input_values = normalized(input);  // carried over: each output is the next input
      // Mutate a few generations deep, as libFuzzer does with inputs it keeps.
      for (int gen = 0; gen < 4; ++gen) {
        auto out = mutator.mutate(input, kMaxSize);
        if (!out) {
          ++declined;
          break;
        }
        ++produced;
        ++seen[static_cast<std::size_t>(mutator.last())];
        std::string out_values = normalized(*out);
        if (out_values != input_values) ++changed[static_cast<std::size_t>(mutator.last())];
        if (out->size() > kMaxSize) {
          std::cerr << "error: output of " << out->size() << " bytes exceeds " << kMaxSize << "\n";
          ++failures;
        }
        bool whole_json = mcpspec::fuzz::parse_json(input).has_value();
        bool text_level = mutator.last() == Mutation::InvalidUtf8 || mutator.last() == Mutation::DuplicateKey ||
                          mutator.last() == Mutation::Truncate;
        // Only duplicate keys may keep it parseable; the other text games must break it or are
        // allowed to, structural ones must not.
        if (whole_json && !text_level && !nlohmann::json::accept(*out)) {
          std::cerr << "error: structural mutation " << mutation_name(mutator.last()) << " broke JSON: "
                    << out->substr(0, 200) << "\n";
          ++failures;
        }
        input = *out;
        input_values = std::move(out_values);
      }
    }
  }
  for (std::size_t k = 0; k < seen.size(); ++k) {
    std::cout << mutation_name(static_cast<Mutation>(k)) << ": " << seen[k] << " (" << changed[k] << " changed the input)\n";
    if (seen[k] == 0) {
      std::cerr << "error: mutation " << mutation_name(static_cast<Mutation>(k)) << " never happened\n";
      ++failures;
    } else if (changed[k] == 0) {
      std::cerr << "error: mutation " << mutation_name(static_cast<Mutation>(k)) << " never changed its input\n";
      ++failures;
    }
  }
  std::cout << produced << " mutations, " << declined << " declined (not JSON: byte mutation's job)\n";
  return failures == 0 ? 0 : 1;
}
