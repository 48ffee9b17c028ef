#include "options.hpp"

#include <string_view>

namespace testserver {

namespace {

std::variant<Profile, UsageError> parse_profile(std::string_view v) {
  if (v == "full") return Profile::full;
  if (v == "tools-only") return Profile::tools_only;
  if (v == "minimal") return Profile::minimal;
  return UsageError{"unknown profile '" + std::string(v) +
                    "' for --profile (expected full, tools-only or minimal)"};
}

}  // namespace

std::string_view profile_name(Profile p) {
  switch (p) {
    case Profile::full: return "full";
    case Profile::tools_only: return "tools-only";
    case Profile::minimal: return "minimal";
  }
  return "full";
}

std::string usage_text() {
  return "usage: mcpspec-testserver [--fault NAME] [--profile full|tools-only|minimal] "
         "[--modern-only] [--list-faults]\n"
         "An MCP server over stdio (one JSON-RPC message per line) for testing mcpspec.\n"
         "  --fault NAME     inject exactly one protocol bug (see --list-faults)\n"
         "  --profile P      full (default): tools, resources, prompts, logging, completions;\n"
         "                   tools-only: only tools; minimal: no capabilities\n"
         "  --modern-only    serve only protocol 2026-07-28 requests; refuse initialize\n"
         "                   (default: dual-era, initialize opens a legacy session)\n"
         "  --list-faults    print the fault names and what each does, then exit\n";
}

std::variant<Options, UsageError> parse_options(int argc, char** argv) {
  Options opt;
  bool fault_seen = false;
  bool profile_seen = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    std::string_view value;
    bool has_inline_value = false;
    if (auto eq = arg.find('='); arg.starts_with("--") && eq != std::string_view::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      has_inline_value = true;
    }
    auto take_value = [&](std::string_view flag) -> std::variant<std::string_view, UsageError> {
      if (has_inline_value) return value;
      if (i + 1 >= argc) return UsageError{"option " + std::string(flag) + " needs a value"};
      return std::string_view(argv[++i]);
    };
    if (arg == "--fault") {
      if (fault_seen) return UsageError{"--fault given twice (only one fault per run)"};
      fault_seen = true;
      auto v = take_value(arg);
      if (auto* e = std::get_if<UsageError>(&v)) return *e;
      auto name = std::get<std::string_view>(v);
      auto f = fault_by_name(name);
      if (!f) {
        return UsageError{"unknown fault '" + std::string(name) +
                          "' for --fault (run --list-faults to see the names)"};
      }
      opt.fault = *f;
    } else if (arg == "--profile") {
      if (profile_seen) return UsageError{"--profile given twice"};
      profile_seen = true;
      auto v = take_value(arg);
      if (auto* e = std::get_if<UsageError>(&v)) return *e;
      auto p = parse_profile(std::get<std::string_view>(v));
      if (auto* e = std::get_if<UsageError>(&p)) return *e;
      opt.profile = std::get<Profile>(p);
    } else if (arg == "--modern-only" && !has_inline_value) {
      opt.modern_only = true;
    } else if (arg == "--list-faults" && !has_inline_value) {
      opt.list_faults = true;
    } else if ((arg == "--help" || arg == "-h") && !has_inline_value) {
      opt.help = true;
    } else {
      return UsageError{"unknown argument '" + std::string(argv[i]) + "'"};
    }
  }
  return opt;
}

}  // namespace testserver
