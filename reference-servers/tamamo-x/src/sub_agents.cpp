#include "sub_agents.hpp"

#include "mutants.hpp"
#include "words.hpp"

#include "mcpref/jsonrpc.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <set>

namespace tamamo {

using mcpref::Json;
namespace rpc = mcpref::rpc;

namespace {

[[noreturn]] void fail(int code, const std::string& message, const std::string& tool, const std::string& details) {
  Json data = {{"toolName", tool}, {"details", details}};
  if (mutant("error-data-without-toolname")) data.erase("toolName");
  throw rpc::RpcError(code, message, data);
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string trim(const std::string& text) {
  auto b = text.find_first_not_of(" \t\r\n:,");
  if (b == std::string::npos) return "";
  auto e = text.find_last_not_of(" \t\r\n");
  return text.substr(b, e - b + 1);
}

// The numbers written in the task, in order ("add 2 and 3.5" -> 2, 3.5).
std::vector<double> numbers_in(const std::string& text) {
  std::vector<double> out;
  for (std::size_t i = 0; i < text.size();) {
    bool sign = text[i] == '-' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]));
    if (!std::isdigit(static_cast<unsigned char>(text[i])) && !sign) {
      ++i;
      continue;
    }
    std::size_t used = 0;
    try {
      out.push_back(std::stod(text.substr(i), &used));
    } catch (const std::exception&) {
      used = 1;
    }
    i += std::max<std::size_t>(used, 1);
  }
  return out;
}

// What a missing required string gets: the task text after the tool's name when the task
// names it; otherwise the task without its leading words that only point at the tool (parts of
// its name, common words): "forecast for Paris" -> "Paris" for weather_forecast.
std::string text_for_tool(const std::string& task, const std::string& tool_name) {
  std::string task_lower = lower(task), name_lower = lower(tool_name);
  if (auto at = task_lower.find(name_lower); at != std::string::npos) {
    std::string after = trim(task.substr(at + name_lower.size()));
    if (!after.empty()) return after;
  }
  std::vector<std::string> parts = name_parts(tool_name);
  std::set<std::string> pointing(parts.begin(), parts.end());
  std::size_t pos = 0;
  while (pos < task.size()) {
    std::size_t start = task.find_first_not_of(" \t", pos);
    if (start == std::string::npos) break;
    std::size_t end = task.find_first_of(" \t", start);
    std::string word = task.substr(start, end == std::string::npos ? std::string::npos : end - start);
    std::vector<std::string> w = words_of(word);
    bool skip = !w.empty() && std::all_of(w.begin(), w.end(), [&](const std::string& x) {
      return pointing.count(x) || is_stop_word(x);
    });
    if (!skip) return trim(task.substr(start));
    if (end == std::string::npos) break;
    pos = end;
  }
  return trim(task);
}

int score(const GroupedTool& t, const std::string& task_lower, const std::set<std::string>& task_words) {
  int total = 0;
  if (task_lower.find(lower(t.tool.name)) != std::string::npos) total += 10;
  for (const std::string& part : name_parts(t.tool.name)) {
    if (!is_stop_word(part) && task_words.count(part)) total += 3;
  }
  std::vector<std::string> description = words_of(t.tool.description);
  for (const std::string& word : std::set<std::string>(description.begin(), description.end())) {
    if (!is_stop_word(word) && task_words.count(word)) total += 1;
  }
  return total;
}

std::string text_of(const Json& result) {
  std::string text;
  for (const Json& item : result.value("content", Json::array())) {
    if (item.is_object() && item.value("type", "") == "text" && item.contains("text") && item["text"].is_string()) {
      if (!text.empty()) text += "\n";
      text += item["text"].get<std::string>();
    }
  }
  return text;
}

}  // namespace

Json sub_agent_input_schema() {
  return {{"type", "object"},
          {"properties",
           {{"task", {{"type", "string"}, {"description", "What to do, in words; naming a tool picks it"}}},
            {"data",
             {{"type", "object"},
              {"description", "Arguments for the tool(s), or {\"tool\": NAME, \"arguments\": {...}} to call one tool"}}}}},
          {"required", {"task"}}};
}

SubAgents::SubAgents(std::vector<Group> groups, UpstreamPool& pool, std::chrono::milliseconds call_timeout)
    : groups_(std::move(groups)), pool_(pool), call_timeout_(call_timeout) {}

Json SubAgents::list() const {
  Json tools = Json::array();
  for (const Group& g : groups_) {
    tools.push_back({{"name", g.name}, {"description", g.description}, {"inputSchema", sub_agent_input_schema()}});
  }
  return {{"tools", tools}};
}

Selection SubAgents::select(const Group& group, const std::string& task, const Json& data) {
  Selection out;
  if (data.is_object() && data.contains("tool")) {
    if (!data["tool"].is_string()) fail(rpc::kInvalidParams, "Invalid params", group.name, "data.tool must be a string");
    std::string wanted = data["tool"].get<std::string>();
    for (const GroupedTool& t : group.tools) {
      if (t.tool.name == wanted || t.tool.server + "/" + t.tool.name == wanted) {
        out.tools.push_back(&t);
        out.why = "named in data.tool";
        return out;
      }
    }
    std::vector<std::string> labels;
    for (const GroupedTool& t : group.tools) labels.push_back(tool_label(group, t));
    fail(rpc::kInvalidParams, "Invalid params", wanted,
         fmt::format("{} has no tool '{}'; its tools: {}", group.name, wanted, fmt::join(labels, ", ")));
  }
  std::string task_lower = lower(task);
  std::vector<std::string> words = words_of(task);
  std::set<std::string> task_words(words.begin(), words.end());
  int best = 0;
  std::vector<int> scores;
  for (const GroupedTool& t : group.tools) {
    scores.push_back(score(t, task_lower, task_words));
    best = std::max(best, scores.back());
  }
  for (std::size_t i = 0; best > 0 && i < group.tools.size(); ++i) {
    if (scores[i] == best) out.tools.push_back(&group.tools[i]);
  }
  out.why = fmt::format("best match for the task (score {})", best);
  return out;
}

Json SubAgents::arguments_for(const GroupedTool& tool, const std::string& task, const Json& data, bool explicit_call) {
  const Json& schema = tool.tool.input_schema;
  std::string label = tool.tool.name;
  if (explicit_call) {
    Json args = data.value("arguments", Json::object());
    if (!args.is_object()) fail(rpc::kInvalidParams, "Invalid params", label, "data.arguments must be an object");
    return args;
  }
  Json properties = schema.value("properties", Json::object());
  Json args = Json::object();
  if (data.is_object()) {
    for (const auto& [key, value] : data.items()) {
      if (!properties.is_object() || properties.empty() || properties.contains(key)) args[key] = value;
    }
  }
  std::string rest = text_for_tool(task, tool.tool.name);
  std::vector<double> numbers = numbers_in(task);
  std::size_t next_number = 0;
  for (const Json& required : schema.value("required", Json::array())) {
    if (!required.is_string() || args.contains(required.get<std::string>())) continue;
    std::string key = required.get<std::string>();
    std::string type = properties.is_object() && properties.contains(key) && properties[key].is_object()
                           ? properties[key].value("type", std::string()) : std::string();
    if (type == "string") {
      args[key] = rest;
    } else if ((type == "number" || type == "integer") && next_number < numbers.size()) {
      double n = numbers[next_number++];
      if (type == "integer") {
        args[key] = static_cast<long long>(n);
      } else {
        args[key] = n;
      }
    } else {
      fail(rpc::kInvalidParams, "Invalid params", label,
           fmt::format("required argument '{}'{} is not in data and cannot be read from the task", key,
                       type.empty() ? "" : " (" + type + ")"));
    }
  }
  return args;
}

Json SubAgents::call(const Json& params) const {
  if (!params.is_object() || !params.contains("name") || !params["name"].is_string()) {
    throw rpc::RpcError(rpc::kInvalidParams, "Invalid params: tools/call needs a string 'name'");
  }
  std::string name = params["name"].get<std::string>();
  auto group = std::find_if(groups_.begin(), groups_.end(), [&](const Group& g) { return g.name == name; });
  if (group == groups_.end()) fail(rpc::kInvalidParams, "Unknown tool: " + name, name, "no sub-agent of this name");
  Json arguments = params.value("arguments", Json::object());
  if (!arguments.is_object()) fail(rpc::kInvalidParams, "Invalid params", name, "arguments must be an object");
  if (!arguments.contains("task") || !arguments["task"].is_string() || trim(arguments["task"].get<std::string>()).empty()) {
    fail(rpc::kInvalidParams, "Invalid params", name, "'task' (a non-empty string) is required");
  }
  std::string task = arguments["task"].get<std::string>();
  Json data = arguments.value("data", Json::object());
  if (!data.is_object()) fail(rpc::kInvalidParams, "Invalid params", name, "'data' must be an object");

  Selection selection = select(*group, task, data);
  if (selection.tools.empty()) {
    std::vector<std::string> labels;
    for (const GroupedTool& t : group->tools) labels.push_back(tool_label(*group, t));
    Json result = {{"content", Json::array({{{"type", "text"},
        {"text", fmt::format("{} found no tool that fits the task. Name one of: {} (or give data.tool).", name,
                             fmt::join(labels, ", "))}}})},
        {"isError", true}};
    return result;
  }
  bool explicit_call = data.contains("tool");
  // Arguments are worked out for every picked tool before any is called: a task that cannot be
  // carried out must not half happen.
  std::vector<Json> argument_sets;
  for (const GroupedTool* t : selection.tools) argument_sets.push_back(arguments_for(*t, task, data, explicit_call));

  std::string text;
  Json extra = Json::array();
  std::vector<std::string> used;
  bool any_error = false;
  for (std::size_t i = 0; i < selection.tools.size(); ++i) {
    const GroupedTool& t = *selection.tools[i];
    std::string label = tool_label(*group, t);
    Json result;
    try {
      result = pool_.call_tool(t.tool.server, t.tool.name, argument_sets[i], call_timeout_);
    } catch (const mcpref::ServerError& e) {
      fail(rpc::kInternalError, "Tool execution failed", label, fmt::format("{} (error {})", e.what(), e.code()));
    } catch (const std::exception& e) {
      fail(rpc::kInternalError, "Tool execution failed", label, e.what());
    }
    used.push_back(label);
    bool failed = result.value("isError", false) == true;
    any_error = any_error || failed;
    text += fmt::format("[{}{}]\n{}\n\n", label, failed ? " failed" : "", text_of(result));
    for (const Json& item : result.value("content", Json::array())) {
      if (item.is_object() && item.value("type", "") != "text") extra.push_back(item);
    }
  }
  text += "Tools used: " + fmt::format("{}", fmt::join(used, ", "));
  Json content = Json::array({{{"type", "text"}, {"text", text}}});
  for (Json& item : extra) content.push_back(std::move(item));
  return {{"content", content}, {"isError", any_error}};
}

}  // namespace tamamo
