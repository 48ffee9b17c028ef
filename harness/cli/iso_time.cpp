// The wall-clock time reports carry (when a run or a proxied session started).
#include "harness/cli/commands.hpp"

#include <ctime>

namespace mcpspec::cli {

std::string iso_now() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

}  // namespace mcpspec::cli
