#include "harness/monitor/schema_monitor.hpp"

namespace mcpspec::monitor {

SchemaJudgement judge_schema(const protocol::SchemaRegistry& schemas, const nlohmann::json& message,
                             const std::string& version, protocol::Sender sender, std::string_view answered_method) {
  auto v = schemas.validate(message, version, sender, answered_method);
  SchemaJudgement out;
  out.definition = v.definition;
  out.unchecked = std::move(v.unchecked);
  if (v.valid) return out;
  std::string what = "not a valid " + version + " " + protocol::sender_name(sender) + " message";
  if (!v.definition.empty()) what += " (" + v.definition + ")";
  for (std::size_t i = 0; i < v.issues.size() && i < 3; ++i)
    what += (i == 0 ? ": " : "; ") + (v.issues[i].pointer.empty() ? std::string("/") : v.issues[i].pointer) + " " +
            v.issues[i].message;
  out.finding = Finding{"schema", {"MCPSPEC-SCHEMA"}, std::move(what)};
  return out;
}

}  // namespace mcpspec::monitor
