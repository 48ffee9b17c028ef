#include "capabilities.hpp"

namespace testserver {

namespace {
bool in_profile(Profile p, Capability cap) {
  switch (p) {
    case Profile::full: return true;
    case Profile::tools_only: return cap == Capability::tools;
    case Profile::minimal: return false;
  }
  return false;
}
}  // namespace

bool serves(const Options& opt, Capability cap) {
  if (cap == Capability::tools && opt.fault == Fault::tools_without_capability) return true;
  if (cap == Capability::logging && opt.fault == Fault::log_without_capability) return true;
  return in_profile(opt.profile, cap);
}

bool declares(const Options& opt, Version v, Capability cap) {
  if (cap == Capability::tools && opt.fault == Fault::tools_without_capability) return false;
  if (cap == Capability::logging && opt.fault == Fault::log_without_capability) return false;
  // Logging is per request from 2026-07-28 on, and this server offers none there.
  if (cap == Capability::logging && v >= Version::v2026_07_28) return false;
  // completion/complete existed in 2024-11-05 but had no capability to declare.
  if (cap == Capability::completions && v < Version::v2025_03_26) return false;
  return in_profile(opt.profile, cap);
}

json capabilities_object(const Options& opt, Version v) {
  json caps = json::object();
  if (declares(opt, v, Capability::tools))
    caps["tools"] = opt.fault == Fault::list_changed_undeclared ? json::object() : json{{"listChanged", true}};
  if (declares(opt, v, Capability::resources)) {
    caps["resources"] = {{"subscribe", true}, {"listChanged", true}};
  }
  if (declares(opt, v, Capability::prompts)) caps["prompts"] = {{"listChanged", true}};
  if (declares(opt, v, Capability::logging)) caps["logging"] = json::object();
  if (declares(opt, v, Capability::completions)) caps["completions"] = json::object();
  // The tasks extension serves the slow_report tool, so it comes with the tools (2026-07-28 only).
  if (v >= Version::v2026_07_28 && declares(opt, v, Capability::tools))
    caps["extensions"] = {{"io.modelcontextprotocol/tasks", json::object()}};
  return caps;
}

json server_info(Version v) {
  json info = {{"name", "mcpspec-testserver"}, {"version", "0.1.0"}};
  if (v >= Version::v2025_06_18) info["title"] = "mcpspec test server";
  return info;
}

}  // namespace testserver
