#include "harness/monitor/input_requests.hpp"

#include "harness/monitor/schema_validity.hpp"
#include "harness/util/string_formats.hpp"

#include <algorithm>
#include <set>
#include <string>

namespace mcpspec::monitor {

using nlohmann::json;

namespace {

constexpr const char* kMonitor = "modern";

const json& member(const json& object, const char* key) {
  static const json kNull;
  return object.is_object() && object.contains(key) ? object[key] : kNull;
}

std::string shown(const json& value) { return value.dump().substr(0, 60); }

// A select option with a title: {"const": "<string>", "title": ...}.
bool titled_options(const json& options) {
  return options.is_array() && !options.empty() &&
         std::all_of(options.begin(), options.end(), [](const json& o) { return member(o, "const").is_string(); });
}

bool string_enum(const json& values) {
  return values.is_array() && !values.empty() &&
         std::all_of(values.begin(), values.end(), [](const json& v) { return v.is_string(); });
}

// Why one property of a form's requestedSchema is not a primitive field, or "".
std::string field_problem(const json& field) {
  if (!field.is_object()) return "is not a schema object";
  const json& type = member(field, "type");
  if (type == "string") {
    const json& format = member(field, "format");
    if (!format.is_null() && format != "email" && format != "uri" && format != "date" && format != "date-time")
      return "has format " + shown(format) + " (a form field's formats are email, uri, date and date-time)";
    if (field.contains("oneOf") && !titled_options(field["oneOf"])) return "has oneOf options that are not {const: string}";
    if (field.contains("enum") && !string_enum(field["enum"])) return "has an enum that is not a list of strings";
    return "";
  }
  if (type == "number" || type == "integer" || type == "boolean") return "";
  if (type == "array") {
    const json& items = member(field, "items");
    if (string_enum(member(items, "enum")) || titled_options(member(items, "anyOf"))) return "";
    return "is an array whose items are not an enum of strings (only multi-select enums may be arrays)";
  }
  return "has type " + shown(type) + " (a form field is a string, number, integer, boolean or enum)";
}

std::string form_schema_problem(const json& schema) {
  if (!schema.is_object()) return "has no requestedSchema object";
  if (member(schema, "type") != "object") return "has a requestedSchema whose type is not object";
  const json& properties = member(schema, "properties");
  if (!properties.is_object()) return "has a requestedSchema without a properties object";
  for (const auto& [name, field] : properties.items())
    if (std::string why = field_problem(field); !why.empty())
      return "has a requestedSchema whose field \"" + name.substr(0, 40) + "\" " + why;
  return "";
}

void judge_elicitation(const std::string& key, const json& params, const json& capabilities, Findings& out) {
  const std::string who = "the elicitation input request \"" + key + "\" ";
  if (!member(params, "message").is_string()) out.push_back({kMonitor, {"ELI-04"}, who + "has no message"});
  const json& mode = member(params, "mode");
  const bool url = mode == "url";
  if (!mode.is_null() && mode != "form" && !url) return;  // the schema monitor reports an unknown mode
  const json& declared = member(capabilities, "elicitation");
  if (declared.is_object()) {
    const bool form_ok = declared.empty() || declared.contains("form");
    if ((url && !declared.contains("url")) || (!url && !form_ok))
      out.push_back({kMonitor, {"ELI-03"}, who + "uses " + (url ? "url" : "form") +
                                               " mode, which the request's elicitation capability " + shown(declared) +
                                               " does not declare"});
  }
  if (url) {
    const json& target = member(params, "url");
    if (!target.is_string() || !util::uri_problem(target.get<std::string>()).empty())
      out.push_back({kMonitor, {"ELI-07"}, who + "has url " + shown(target) + ", not an absolute URL"});
    if (params.contains("elicitationId"))
      out.push_back({kMonitor, {"ELI-07"}, who + "carries an elicitationId (removed in 2026-07-28: the state "
                                                 "travels in requestState)"});
    return;
  }
  const json& schema = member(params, "requestedSchema");
  if (std::string why = form_schema_problem(schema); !why.empty()) {
    out.push_back({kMonitor, {"ELI-06"}, who + why});
  } else if (auto invalid = invalid_2020_12(schema)) {
    out.push_back({kMonitor, {"JSD-05"}, who + "has a requestedSchema that is not valid JSON Schema 2020-12: " + *invalid});
  }
}

// A message's content blocks: an array, or one block.
json blocks_of(const json& message) {
  const json& content = member(message, "content");
  return content.is_array() ? content : json::array({content});
}

std::string block_type(const json& block) {
  const json& type = member(block, "type");
  return type.is_string() ? type.get<std::string>() : std::string();
}

void judge_messages(const std::string& who, const json& messages, Findings& out) {
  if (!messages.is_array()) return;  // the schema monitor reports it
  std::set<std::string> used;        // ids of the tool uses so far
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const json& message = messages[i];
    const std::string at = who + "message " + std::to_string(i) + " ";
    const json& role = member(message, "role");
    const json& content = member(message, "content");
    if ((role != "user" && role != "assistant") || !(content.is_object() || content.is_array())) {
      out.push_back({kMonitor, {"SMP-19"}, at + "is not a user or assistant turn with content"});
      continue;
    }
    const json blocks = blocks_of(message);
    const auto results = std::count_if(blocks.begin(), blocks.end(), [](const json& b) { return block_type(b) == "tool_result"; });
    if (results > 0 && static_cast<std::size_t>(results) != blocks.size())
      out.push_back({kMonitor, {"SMP-07"}, at + "mixes tool results with other content"});
    for (const auto& b : blocks)
      if (block_type(b) == "tool_result" &&
          !(member(b, "toolUseId").is_string() && used.count(b["toolUseId"].get<std::string>()) > 0))
        out.push_back({kMonitor, {"SMP-10"}, at + "holds a tool result for " + shown(member(b, "toolUseId")) +
                                                 ", which no earlier tool use has as id"});
    if (role != "assistant") continue;
    std::set<std::string> asked;
    for (const auto& b : blocks)
      if (block_type(b) == "tool_use" && member(b, "id").is_string()) asked.insert(b["id"].get<std::string>());
    if (asked.empty()) continue;
    used.insert(asked.begin(), asked.end());
    const json& next = i + 1 < messages.size() ? messages[i + 1] : json();
    std::set<std::string> answered;
    bool only_results = member(next, "role") == "user";
    for (const auto& b : blocks_of(next)) {
      if (block_type(b) != "tool_result") only_results = false;
      else if (member(b, "toolUseId").is_string()) answered.insert(b["toolUseId"].get<std::string>());
    }
    if (!only_results)
      out.push_back({kMonitor, {"SMP-08"}, at + "uses tools but is not followed at once by a user message of tool results"});
    else if (answered != asked)
      out.push_back({kMonitor, {"SMP-09", "SMP-08"}, at + "uses " + std::to_string(asked.size()) + " tool(s), and the "
                                                          "next message's tool results do not answer exactly those"});
  }
}

void judge_sampling(const std::string& key, const json& params, const json& capabilities, Findings& out) {
  const std::string who = "the sampling input request \"" + key + "\" ";
  const json& declared = member(capabilities, "sampling");
  if (declared.is_object()) {
    if ((params.contains("tools") || params.contains("toolChoice")) && !declared.contains("tools"))
      out.push_back({kMonitor, {"SMP-04"}, who + "offers tools (tools/toolChoice) although the request's sampling "
                                                 "capability declares no tools"});
    const json& context = member(params, "includeContext");
    if ((context == "thisServer" || context == "allServers") && !declared.contains("context"))
      out.push_back({kMonitor, {"SMP-06"}, who + "asks includeContext " + shown(context) +
                                                 " although the request's sampling capability declares no context"});
  }
  judge_messages(who, member(params, "messages"), out);
}

}  // namespace

Findings judge_input_requests(const json& input_requests, const json& capabilities) {
  Findings out;
  if (!input_requests.is_object()) return out;
  for (const auto& [key, request] : input_requests.items()) {
    const json& method = member(request, "method");
    const json& params = member(request, "params");
    if (method == "elicitation/create") judge_elicitation(key, params, capabilities, out);
    if (method == "sampling/createMessage") judge_sampling(key, params, capabilities, out);
    if (out.size() >= 8) break;
  }
  return out;
}

}  // namespace mcpspec::monitor
