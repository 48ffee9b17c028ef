// The regression runner: main() for a fuzz target built without libFuzzer (any compiler). Replays
// every file of the folders (or files) named on the command line through LLVMFuzzerTestOneInput,
// so saved crashes and the committed corpus are re-checked on every CI run. A crash or a violated
// invariant aborts the process (ctest reports the failure); an input slower than the budget fails,
// unless MCPSPEC_REGRESS_NO_BUDGET is set: under valgrind (bench/fuzz-parse-rate/count.sh counts
// instructions per input this way) every input runs some fifty times slower.
#include "fuzz/support/fuzz_target.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {
constexpr double kSlowInputSeconds = 5.0;  // far above any input's cost; below ctest's timeout

std::vector<fs::path> inputs_of(const fs::path& p) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (fs::is_directory(p, ec)) {
    for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
      if (it->is_regular_file(ec) && it->path().filename().string()[0] != '.' && it->path().filename() != "README.md")
        out.push_back(it->path());
  } else if (fs::is_regular_file(p, ec)) {
    out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: " << argv[0] << " <file-or-folder>...\n"
              << "Replays each input through the fuzz target; exits non-zero (or aborts) on a failure.\n";
    return 2;
  }
  std::size_t count = 0;
  double slowest = 0;
  const bool budget = std::getenv("MCPSPEC_REGRESS_NO_BUDGET") == nullptr;
  for (int i = 1; i < argc; ++i) {
    std::error_code ec;
    if (!fs::exists(argv[i], ec)) {
      std::cerr << "note: " << argv[i] << " does not exist (no inputs saved there yet)\n";
      continue;
    }
    for (const auto& file : inputs_of(argv[i])) {
      std::ifstream in(file, std::ios::binary);
      if (!in) {
        std::cerr << "error: cannot read " << file << "\n";
        return 1;
      }
      std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      // Named first so that an abort inside the target says which input caused it.
      std::cerr << "replay " << file.string() << " (" << bytes.size() << " bytes)\n";
      auto t0 = std::chrono::steady_clock::now();
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
      double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      slowest = std::max(slowest, secs);
      if (budget && secs > kSlowInputSeconds) {
        std::cerr << "error: " << file << " took " << secs << " s (budget " << kSlowInputSeconds << " s)\n";
        return 1;
      }
      ++count;
    }
  }
  std::cerr << "ok: " << count << " inputs replayed, slowest " << slowest << " s\n";
  return 0;
}
