#include "config.hpp"

#include "mcpref/atomic_file.hpp"

#include <fmt/format.h>

#include <set>

namespace tamamo {

using mcpref::Json;

const char* transport_name(UpstreamTransport transport) {
  switch (transport) {
    case UpstreamTransport::Stdio: return "stdio";
    case UpstreamTransport::Http: return "http";
    case UpstreamTransport::WebSocket: return "websocket";
  }
  return "?";
}

namespace {

[[noreturn]] void bad(const std::string& where, const std::string& what) {
  throw ConfigError(fmt::format("{}: {}", where, what));
}

std::string require_string(const Json& object, const char* key, const std::string& where) {
  auto it = object.find(key);
  if (it == object.end()) bad(where, fmt::format("'{}' is required", key));
  if (!it->is_string() || it->get<std::string>().empty()) bad(where + "/" + key, "must be a non-empty string");
  return it->get<std::string>();
}

std::chrono::milliseconds positive_ms(const Json& value, const std::string& where) {
  if (!value.is_number_integer() || value.get<long long>() < 1 || value.get<long long>() > 3600000) {
    bad(where, "must be an integer number of milliseconds from 1 to 3600000");
  }
  return std::chrono::milliseconds(value.get<long long>());
}

void check_name(const std::string& name, const std::string& where) {
  if (name.empty() || name.size() > 64 || name.find_first_of("=/ \t") != std::string::npos) {
    bad(where, fmt::format("server name '{}' must be 1-64 characters without '=', '/' or spaces", name));
  }
}

}  // namespace

UpstreamConfig parse_upstream(const std::string& name, const Json& entry, const std::string& where) {
  check_name(name, where);
  if (!entry.is_object()) bad(where, "must be an object with 'command' or 'url'");
  UpstreamConfig up;
  up.name = name;
  std::string transport = entry.contains("transport") ? require_string(entry, "transport", where)
                          : entry.contains("type")    ? require_string(entry, "type", where)
                                                      : "";
  if (entry.contains("url")) {
    up.url = require_string(entry, "url", where);
    if (transport.empty()) transport = up.url.rfind("ws://", 0) == 0 ? "websocket" : "http";
    if (transport == "http" || transport == "streamable-http") {
      up.transport = UpstreamTransport::Http;
      if (up.url.rfind("http://", 0) != 0) bad(where + "/url", "an http server needs an http:// URL");
    } else if (transport == "websocket" || transport == "ws") {
      up.transport = UpstreamTransport::WebSocket;
      if (up.url.rfind("ws://", 0) != 0) bad(where + "/url", "a websocket server needs a ws:// URL");
    } else {
      bad(where + "/transport", fmt::format("'{}' is not supported (use http or websocket)", transport));
    }
  } else {
    if (!transport.empty() && transport != "stdio") {
      bad(where, fmt::format("transport '{}' needs a 'url'", transport));
    }
    up.argv.push_back(require_string(entry, "command", where));
    if (entry.contains("args")) {
      const Json& args = entry["args"];
      if (!args.is_array()) bad(where + "/args", "must be an array of strings");
      for (std::size_t i = 0; i < args.size(); ++i) {
        if (!args[i].is_string()) bad(fmt::format("{}/args/{}", where, i), "must be a string");
        up.argv.push_back(args[i].get<std::string>());
      }
    }
    if (entry.contains("env")) {
      const Json& env = entry["env"];
      if (!env.is_object()) bad(where + "/env", "must be an object of strings");
      for (const auto& [key, value] : env.items()) {
        if (!value.is_string()) bad(where + "/env/" + key, "must be a string");
        up.env[key] = value.get<std::string>();
      }
    }
  }
  if (entry.contains("timeoutMs")) up.timeout = positive_ms(entry["timeoutMs"], where + "/timeoutMs");
  return up;
}

Config parse_config(const Json& document, const std::string& where) {
  if (!document.is_object()) bad(where, "must hold a JSON object");
  Config config;
  auto servers = document.find("mcpServers");
  if (servers == document.end() || !servers->is_object()) bad(where, "'mcpServers' must be an object (name -> server)");
  for (const auto& [name, entry] : servers->items()) {
    config.servers.push_back(parse_upstream(name, entry, where + ": /mcpServers/" + name));
  }
  if (auto d = document.find("discovery"); d != document.end()) {
    if (!d->is_object()) bad(where + ": /discovery", "must be an object");
    if (d->contains("timeoutMs")) config.discovery_timeout = positive_ms((*d)["timeoutMs"], where + ": /discovery/timeoutMs");
    if (d->contains("callTimeoutMs")) config.call_timeout = positive_ms((*d)["callTimeoutMs"], where + ": /discovery/callTimeoutMs");
  }
  if (auto g = document.find("grouping"); g != document.end()) {
    if (!g->is_object()) bad(where + ": /grouping", "must be an object");
    if (g->contains("rulesFile")) {
      if (!(*g)["rulesFile"].is_string()) bad(where + ": /grouping/rulesFile", "must be a string");
      config.grouping.rules_file = (*g)["rulesFile"].get<std::string>();
    }
    if (g->contains("schemaSimilarity")) {
      const Json& s = (*g)["schemaSimilarity"];
      if (!s.is_number() || s.get<double>() <= 0 || s.get<double>() > 1) {
        bad(where + ": /grouping/schemaSimilarity", "must be a number above 0 and at most 1");
      }
      config.grouping.schema_similarity = s.get<double>();
    }
  }
  return config;
}

Json read_json_file(const std::filesystem::path& file, std::size_t max_bytes, const std::string& hint) {
  std::string text;
  try {
    text = mcpref::read_file_limited(file, max_bytes);
  } catch (const std::exception& e) {
    throw ConfigError(fmt::format("{}: cannot read: {}{}", file.string(), e.what(), hint.empty() ? "" : " (" + hint + ")"));
  }
  Json document = Json::parse(text, nullptr, false);
  if (document.is_discarded()) throw ConfigError(file.string() + ": not valid JSON");
  return document;
}

Config load_config(const std::filesystem::path& file) {
  Config config = parse_config(read_json_file(file, 4u << 20, "run `tamamo-x-mcp init` first"), file.string());
  // A rules file is named relative to the configuration, wherever tamamo runs from.
  if (!config.grouping.rules_file.empty() && std::filesystem::path(config.grouping.rules_file).is_relative()) {
    config.grouping.rules_file = (file.parent_path() / config.grouping.rules_file).string();
  }
  return config;
}

Json config_to_json(const Config& config) {
  Json servers = Json::object();
  for (const UpstreamConfig& up : config.servers) {
    Json entry = Json::object();
    if (up.transport == UpstreamTransport::Stdio) {
      entry["command"] = up.argv.empty() ? "" : up.argv.front();
      entry["args"] = Json::array();
      for (std::size_t i = 1; i < up.argv.size(); ++i) entry["args"].push_back(up.argv[i]);
      if (!up.env.empty()) entry["env"] = up.env;
    } else {
      entry["url"] = up.url;
      entry["transport"] = transport_name(up.transport);
    }
    if (up.timeout) entry["timeoutMs"] = up.timeout->count();
    servers[up.name] = entry;
  }
  Json grouping = {{"schemaSimilarity", config.grouping.schema_similarity}};
  if (!config.grouping.rules_file.empty()) grouping["rulesFile"] = config.grouping.rules_file;
  return {{"version", kVersion},
          {"mcpServers", servers},
          {"discovery", {{"timeoutMs", config.discovery_timeout.count()}, {"callTimeoutMs", config.call_timeout.count()}}},
          {"grouping", grouping}};
}

namespace {

std::pair<std::string, std::string> split_option(const std::string& option, const char* flag) {
  auto eq = option.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == option.size()) {
    bad(flag, fmt::format("'{}' is not NAME=VALUE", option));
  }
  std::string name = option.substr(0, eq);
  check_name(name, flag);
  return {name, option.substr(eq + 1)};
}

}  // namespace

UpstreamConfig upstream_from_shell_option(const std::string& option) {
  auto [name, command] = split_option(option, "--server");
  UpstreamConfig up;
  up.name = name;
  up.shell = command;
  return up;
}

UpstreamConfig upstream_from_argv_option(const std::string& option) {
  auto [name, text] = split_option(option, "--server-argv");
  Json argv = Json::parse(text, nullptr, false);
  if (argv.is_discarded() || !argv.is_array() || argv.empty()) {
    bad("--server-argv " + name, "the value must be a non-empty JSON array of strings");
  }
  UpstreamConfig up;
  up.name = name;
  for (const Json& word : argv) {
    if (!word.is_string()) bad("--server-argv " + name, "every element must be a string");
    up.argv.push_back(word.get<std::string>());
  }
  return up;
}

UpstreamConfig upstream_from_url_option(const std::string& option) {
  auto [name, url] = split_option(option, "--server-url");
  return parse_upstream(name, Json{{"url", url}}, "--server-url " + name);
}

}  // namespace tamamo
