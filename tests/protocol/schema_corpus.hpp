#pragma once
// The cross-check corpus: every example message of the specification pages, every literal
// JSON-RPC message in our scenario files, and systematic mutations of the examples. Each item
// carries the context a validator needs (version, sender, the method a response answers).
#include "harness/protocol/schema_registry.hpp"
#include "harness/protocol/era.hpp"
#include "harness/protocol/versions.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace mcpspec::test {

using nlohmann::json;
using protocol::Sender;

struct CorpusItem {
  std::string version;
  std::string source;   // "example" or "scenario"
  std::string where;    // page of the example, or scenario file
  std::string variant;  // "original" or the mutation applied
  json message;
  Sender sender = Sender::Client;
  std::string answered;  // method a response answers, "" when unknown
};

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::string shared_dir() { return MCPSPEC_SHARED_DIR; }
inline std::string source_dir() { return MCPSPEC_SOURCE_DIR; }

inline Sender opposite(Sender s) { return s == Sender::Client ? Sender::Server : Sender::Client; }

// Who sends a request or notification: the method table says; "both" and unknown methods are
// taken as client-sent (either side may send them, so either choice is valid).
inline Sender sender_of_call(const protocol::SchemaRegistry& ours, const std::string& version, const json& method) {
  if (!method.is_string()) return Sender::Client;
  auto info = ours.method(version, method.get<std::string>());
  return info && info->from == "server" ? Sender::Server : Sender::Client;
}

// Examples of one version, in page order; a response answers the latest request with its id on
// the same page, and comes from the other side (client pages hold client-sent responses).
inline std::vector<CorpusItem> example_items(const protocol::SchemaRegistry& ours, const std::string& version) {
  std::vector<CorpusItem> out;
  std::istringstream lines(read_text(shared_dir() + "/mcp-spec/examples/" + version + ".jsonl"));
  std::map<std::pair<std::string, std::string>, std::string> pending;  // (page, id) -> method
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    json entry = json::parse(line);
    CorpusItem item;
    item.version = version;
    item.source = "example";
    item.where = entry.at("page").get<std::string>();
    item.variant = "original";
    item.message = entry.at("message");
    const json& m = item.message;
    if (m.is_object() && m.contains("method")) {
      item.sender = sender_of_call(ours, version, m["method"]);
      if (m.contains("id") && m["method"].is_string()) pending[{item.where, m["id"].dump()}] = m["method"];
    } else if (m.is_object()) {
      auto it = pending.find({item.where, m.value("id", json()).dump()});
      if (it != pending.end()) {
        item.answered = it->second;
        item.sender = opposite(sender_of_call(ours, version, json(item.answered)));
      } else {
        item.sender = item.where.rfind("client/", 0) == 0 ? Sender::Client : Sender::Server;
      }
    }
    out.push_back(std::move(item));
  }
  return out;
}

inline bool has_matcher_syntax(const json& value) {
  if (value.is_object()) {
    for (const auto& [key, sub] : value.items()) {
      if (!key.empty() && key[0] == '$') return true;
      if (has_matcher_syntax(sub)) return true;
    }
  } else if (value.is_array()) {
    for (const auto& sub : value) {
      if (has_matcher_syntax(sub)) return true;
    }
  }
  return false;
}

// Literal JSON-RPC messages in scenario files: values of send/expect/reply that carry "jsonrpc"
// and no matcher operator. Versions: every version the harness runs (a scenario's range is its
// own business; a literal message should be well-formed wherever it is sent). Versions that are
// only described (2026-07-28: schemas and catalog, no runs yet) are left out: the scenarios
// speak the initialize-based protocol, which 2026-07-28 rejects.
inline std::vector<CorpusItem> scenario_items(const protocol::SchemaRegistry& ours) {
  std::vector<CorpusItem> out;
  const std::filesystem::path root = source_dir() + "/scenarios";
  if (!std::filesystem::exists(root)) return out;
  for (const auto& file : std::filesystem::recursive_directory_iterator(root)) {
    if (!file.is_regular_file() || file.path().extension() != ".json") continue;
    if (file.path().string().find("/requirements/") != std::string::npos) continue;
    json doc;
    try {
      doc = json::parse(read_text(file.path()));
    } catch (const json::exception&) {
      continue;  // the scenario loader's tests own malformed files
    }
    if (!doc.is_object()) continue;
    const bool target_is_server = doc.value("role", std::string("server")) != "client";
    std::map<std::string, std::string> pending;  // id -> method, in file order
    std::vector<std::pair<std::string, json>> found;
    // Depth-first in document order: steps keep their sequence.
    std::function<void(const json&)> walk = [&](const json& node) {
      if (node.is_object()) {
        for (const auto& [key, sub] : node.items()) {
          if ((key == "send" || key == "expect" || key == "reply") && sub.is_object() && sub.contains("jsonrpc") &&
              !has_matcher_syntax(sub)) {
            found.emplace_back(key, sub);
          } else {
            walk(sub);
          }
        }
      } else if (node.is_array()) {
        for (const auto& sub : node) walk(sub);
      }
    };
    walk(doc.value("steps", json::array()));
    const std::string where = std::filesystem::relative(file.path(), source_dir()).string();
    // At a modern version (2026-07-28) a scenario's messages count only when the scenario runs
    // there: a client-role scenario whose protocol range holds it (server runs keep to the legacy
    // versions so far). Legacy messages such as ping are no examples of the stateless era.
    const auto range = protocol::VersionRange::parse(doc.value("protocol", json("all")));
    for (const auto& version : protocol::known_versions()) {
      if (!ours.has_version(version)) continue;
      if (protocol::is_modern(version) && (target_is_server || !range.contains(version))) continue;
      pending.clear();
      for (const auto& [key, message] : found) {
        CorpusItem item;
        item.version = version;
        item.source = "scenario";
        item.where = where;
        item.variant = "original";
        item.message = message;
        // "send"/"reply" come from the harness, "expect" from the target.
        const Sender harness = target_is_server ? Sender::Client : Sender::Server;
        item.sender = key == "expect" ? opposite(harness) : harness;
        if (message.contains("method") && message.contains("id") && message["method"].is_string()) {
          pending[message["id"].dump()] = message["method"];
        } else if (!message.contains("method") && message.contains("id")) {
          auto it = pending.find(message["id"].dump());
          if (it != pending.end()) item.answered = it->second;
        }
        out.push_back(std::move(item));
      }
    }
  }
  return out;
}

inline std::string pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

// A value of another JSON type, for "retype" mutations.
inline json retyped(const json& value) {
  if (value.is_string()) return 12345;
  if (value.is_null()) return 0;
  return "mutated";
}

inline void nested_mutations(const json& message, const json& node, const json::json_pointer& at,
                             std::vector<std::pair<std::string, json>>& out) {
  auto add = [&](const std::string& kind, const json::json_pointer& where, const json* replacement) {
    json copy = message;
    if (replacement == nullptr) {
      copy[where.parent_pointer()].erase(where.back());
    } else {
      copy[where] = *replacement;
    }
    out.emplace_back(kind + ":" + where.to_string(), std::move(copy));
  };
  if (node.is_object()) {
    for (const auto& [key, sub] : node.items()) {
      json::json_pointer child = at / key;
      add("drop", child, nullptr);
      json other = retyped(sub);
      add("retype", child, &other);
      nested_mutations(message, sub, child, out);
    }
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      json::json_pointer child = at / i;
      json other = retyped(node[i]);
      add("retype", child, &other);
      nested_mutations(message, node[i], child, out);
    }
  }
}

// Named variants of one message: envelope breakage plus a drop and a retype of every member below
// params/result/error. Most are invalid; some (dropping an optional member) stay valid, and both
// schemas must say so alike.
inline std::vector<std::pair<std::string, json>> variants(const json& message) {
  std::vector<std::pair<std::string, json>> out;
  if (!message.is_object()) return out;
  auto without = [&](const char* key) {
    json copy = message;
    copy.erase(key);
    return copy;
  };
  auto with = [&](const char* key, json value) {
    json copy = message;
    copy[key] = std::move(value);
    return copy;
  };
  out.emplace_back("drop-jsonrpc", without("jsonrpc"));
  out.emplace_back("wrong-jsonrpc", with("jsonrpc", "1.0"));
  out.emplace_back("numeric-jsonrpc", with("jsonrpc", 2.0));
  out.emplace_back("not-an-object", json::array({"jsonrpc", "2.0"}));
  out.emplace_back("batch", json::array({message}));
  const bool call = message.contains("method");
  if (call && message.contains("id")) {
    out.emplace_back("id-null-request", with("id", nullptr));
    out.emplace_back("id-boolean", with("id", true));
    out.emplace_back("id-object", with("id", json::object()));
    out.emplace_back("drop-id-request", without("id"));
  }
  if (call) {
    out.emplace_back("method-not-string", with("method", 42));
    if (message.contains("params")) out.emplace_back("params-not-object", with("params", json::array({message["params"]})));
    out.emplace_back("with-result", with("result", json::object()));
  }
  if (message.contains("result")) {
    out.emplace_back("result-and-error", with("error", {{"code", -32603}, {"message", "mutated"}}));
    out.emplace_back("result-not-object", with("result", json::array()));
    out.emplace_back("result-with-method", with("method", "ping"));
    out.emplace_back("drop-id-result", without("id"));
    out.emplace_back("id-null-result", with("id", nullptr));
  }
  if (message.contains("error")) {
    out.emplace_back("error-id-null", with("id", nullptr));
    out.emplace_back("error-drop-id", without("id"));
    out.emplace_back("error-not-object", with("error", "mutated"));
  }
  for (const char* body : {"params", "result", "error"}) {
    auto it = message.find(body);
    if (it != message.end() && (it->is_object() || it->is_array())) {
      nested_mutations(message, *it, json::json_pointer("/" + std::string(body)), out);
    }
  }
  return out;
}

// The official 2026-07-28 schema split over two files (core, and the tasks extension's), made
// readable the way the registry reads the older ones. Each step restates what the files say in
// a form the registry looks for; none changes a verdict:
// * the extension's definitions the core file lacks are added (it repeats the core ones);
// * its messages are allOf [envelope, body]; the body's members are also put at the top level,
//   where the registry finds a method's name (properties.method.const);
// * its requests and notification join the ClientRequest / ServerNotification unions, which
//   tell the registry who sends a method;
// * ClientNotification is a single message there, written as a one-member union;
// * the result of tools/call, prompts/get and resources/read is only spelled inside the
//   XxxResultResponse definitions (complete or input-required); it is given the name our method
//   table uses, and tools/call's gains the extension's CreateTaskResult.
inline json official_2026_document(const std::string& dir) {
  json core = json::parse(read_text(dir + "/schema.json"));
  const json ext = json::parse(read_text(dir + "/ext-tasks/schema.json"));
  json& defs = core.at("$defs");
  auto ref = [](const std::string& name) { return json{{"$ref", "#/$defs/" + name}}; };
  for (const auto& [name, def] : ext.at("$defs").items()) {
    if (defs.contains(name)) continue;
    json copy = def;
    copy.erase("$schema");
    if (copy.contains("allOf") && copy["allOf"].size() == 2 && copy["allOf"][1].contains("properties") &&
        copy["allOf"][1]["properties"].contains("method")) {
      copy["properties"] = copy["allOf"][1]["properties"];
      copy["required"] = copy["allOf"][1]["required"];
    }
    defs[name] = std::move(copy);
  }
  for (const char* request : {"GetTaskRequest", "UpdateTaskRequest", "CancelTaskRequest"})
    defs.at("ClientRequest").at("anyOf").push_back(ref(request));
  defs.at("ServerNotification").at("anyOf").push_back(ref("TaskStatusNotification"));
  defs["ClientNotification"] = json{{"anyOf", json::array({ref("CancelledNotification")})}};
  const std::pair<const char*, const char*> answers[] = {{"CallToolResponseResult", "CallToolResultResponse"},
                                                         {"GetPromptResponseResult", "GetPromptResultResponse"},
                                                         {"ReadResourceResponseResult", "ReadResourceResultResponse"}};
  for (const auto& [ours, response] : answers) defs[ours] = defs.at(response).at("properties").at("result");
  defs.at("CallToolResponseResult").at("anyOf").push_back(ref("CreateTaskResult"));
  return core;
}

// The official schema of a version, as the cross-check compares against it.
inline std::unique_ptr<protocol::SchemaRegistry> official_registry(const std::string& version) {
  const std::string dir = shared_dir() + "/mcp-spec/schema/" + version;
  if (version >= "2026-07-28")
    return protocol::SchemaRegistry::from_document(official_2026_document(dir), version, dir + "/schema.json");
  return protocol::SchemaRegistry::from_file(dir + "/schema.json", version);
}

// '*' matches any run of characters; everything else literally.
inline bool glob_match(std::string_view pattern, std::string_view text) {
  std::size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace mcpspec::test
