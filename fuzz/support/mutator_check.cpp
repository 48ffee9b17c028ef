// Checks the JSON mutator without libFuzzer: run it many times over the hand-written seeds and
// verify it stays within the size limit, keeps structural mutations valid JSON, and reaches
// every mutation kind, and that each kind changed its input at least once. A mutator that
// silently stopped mutating would otherwise go unnoticed: libFuzzer would just fall back to byte
// mutation.
#include "fuzz/support/json_mutator.hpp"
#include "fuzz/support/selector_byte.hpp"

#include <array>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace fs = std::filesystem;
using mcpspec::fuzz::Mutation;

namespace {
// The input as values, so that re-serializing (key order, spacing) does not count as a change:
// the whole input as one JSON document, else each line as one (or as text when it is not JSON).
std::string normalized(const std::string& text) {
  if (auto whole = mcpspec::fuzz::parse_json(text)) return whole->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  for (const auto& line : mcpspec::fuzz::split_lines(text)) {
    auto v = mcpspec::fuzz::parse_json(line);
    out += (v ? v->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) : line) + "\n";
  }
  return out;
}

// The frames the line-wise mutations work on: n newlines give n + 1 pieces.
bool split_lines_keeps_every_piece() {
  using mcpspec::fuzz::split_lines;
  using Pieces = std::vector<std::string>;
  return split_lines("") == Pieces{""} && split_lines("a") == Pieces{"a"} && split_lines("a\n") == Pieces{"a", ""} &&
         split_lines("\n\nb") == Pieces{"", "", "b"} && split_lines("{}\r\n{}") == Pieces{"{}\r", "{}"};
}

bool ends_with_newline(const std::string& text) { return !text.empty() && text.back() == '\n'; }
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: " << argv[0] << " <corpus-folder> [<target whose inputs start with a selector byte>...]\n";
    return 2;
  }
  // The custom mutator never shows such a target's first byte (a choice, selector_byte.hpp) to
  // the JSON mutator; neither does this check.
  std::set<std::string> selector_targets(argv + 2, argv + argc);
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
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string target = it->path().lexically_relative(argv[1]).begin()->string();
    if (selector_targets.count(target)) {
      auto split = mcpspec::fuzz::split_selector(bytes);
      if (!split) continue;
      bytes = std::string(split->rest);
    }
    seeds.push_back(std::move(bytes));
  }
  if (seeds.empty()) {
    std::cerr << "error: no seeds under " << argv[1] << "\n";
    return 1;
  }
  std::array<std::size_t, static_cast<std::size_t>(Mutation::kCount)> seen{}, changed{};
  std::size_t produced = 0, declined = 0, failures = 0;
  if (!split_lines_keeps_every_piece()) {
    std::cerr << "error: split_lines does not cut text into n + 1 pieces at n newlines\n";
    ++failures;
  }
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
        // A multi-frame input whose frames are kept (every kind but frame-game, which may split
        // the last frame at its end) changes inside one line: a stream that ended with a newline
        // still does, and one that did not still does not.
        if (!whole_json && mutator.last() != Mutation::FrameGame && ends_with_newline(*out) != ends_with_newline(input)) {
          std::cerr << "error: " << mutation_name(mutator.last()) << " changed whether the frames end with a newline: "
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
