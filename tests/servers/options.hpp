// Command-line options of mcpspec-testserver.
#pragma once

#include <string>
#include <variant>

#include "faults.hpp"

namespace testserver {

// What the server declares and serves; `tools-only` and `minimal` exist to prove that a
// harness gates its checks on declared capabilities.
enum class Profile { full, tools_only, minimal };

struct Options {
  Fault fault = Fault::none;
  Profile profile = Profile::full;
  bool modern_only = false;  // --modern-only: protocol 2026-07-28 only, initialize refused
  bool list_faults = false;
  bool help = false;
};

struct UsageError {
  std::string message;
};

std::variant<Options, UsageError> parse_options(int argc, char** argv);
std::string usage_text();
std::string_view profile_name(Profile p);

}  // namespace testserver
