#include "discovery.hpp"

#include "mutants.hpp"
#include "upstream_channel.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <thread>

namespace tamamo {

using mcpref::Json;

namespace {

constexpr int kMaxPages = 100;  // a server that pages forever must not keep build running

void collect_tools_into(const std::string& server, const Json& tools, ServerDiscovery& into) {
  if (!tools.is_array()) throw std::runtime_error("tools/list result has no 'tools' array");
  for (std::size_t i = 0; i < tools.size(); ++i) {
    const Json& t = tools[i];
    if (!t.is_object() || !t.contains("name") || !t["name"].is_string() || t["name"].get<std::string>().empty()) {
      into.warnings.push_back(fmt::format("tool {} has no name: skipped", i));
      continue;
    }
    std::string name = t["name"].get<std::string>();
    Json schema = t.value("inputSchema", Json());
    if (!schema.is_object()) {
      into.warnings.push_back(fmt::format("tool '{}' has no inputSchema object: skipped", name));
      continue;
    }
    std::string description = t.contains("description") && t["description"].is_string()
                                  ? t["description"].get<std::string>() : "";
    into.tools.push_back({server, name, description, schema});
  }
}

ServerDiscovery discover_one(const UpstreamConfig& upstream, std::chrono::milliseconds timeout) {
  ServerDiscovery out;
  out.server = upstream.name;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  auto left = [&] {
    auto rest = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (rest.count() <= 0) throw mcpref::RequestTimeout(fmt::format("no answer within {} ms", timeout.count()), nullptr);
    return rest;
  };
  std::unique_ptr<mcpref::ClientChannel> channel;
  try {
    channel = make_channel(upstream);
    Handshake hello = connect_upstream(*channel, left());
    out.server_info = hello.server_info;
    out.protocol_version = hello.protocol_version;
    Json cursor;
    bool has_tools = hello.capabilities.is_object() && hello.capabilities.contains("tools");
    if (!has_tools) out.warnings.push_back("declares no tools capability: no tools listed");
    for (int page = 0; has_tools && page < kMaxPages; ++page) {
      Json params = Json::object();
      if (!cursor.is_null()) params["cursor"] = cursor;
      Json result = channel->request("tools/list", params, left());
      if (!result.is_object()) throw std::runtime_error("tools/list answered with no object");
      collect_tools_into(upstream.name, result.value("tools", Json()), out);
      cursor = result.value("nextCursor", Json());
      if (!cursor.is_string()) break;
    }
    out.ok = true;
  } catch (const mcpref::RequestTimeout& e) {
    out.error = fmt::format("timed out after {} ms ({})", timeout.count(), e.what());
  } catch (const mcpref::ServerError& e) {
    out.error = fmt::format("the server answered with error {}: {}", e.code(), e.what());
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  if (channel) channel->close(std::chrono::milliseconds(500));
  if (!out.ok) out.tools.clear();
  return out;
}

}  // namespace

void collect_tools(const std::string& server, const Json& tools, ServerDiscovery& into) {
  collect_tools_into(server, tools, into);
}

std::vector<ServerDiscovery> discover(const Config& config) {
  std::vector<ServerDiscovery> results(config.servers.size());
  if (mutant("discovery-aborts")) {
    // Fault: one server at a time, and the first failure abandons the rest.
    for (std::size_t i = 0; i < config.servers.size(); ++i) {
      results[i] = discover_one(config.servers[i], config.servers[i].timeout.value_or(config.discovery_timeout));
      if (!results[i].ok) throw std::runtime_error("discovery failed at " + results[i].server + ": " + results[i].error);
    }
    return results;
  }
  std::vector<std::thread> workers;
  for (std::size_t i = 0; i < config.servers.size(); ++i) {
    workers.emplace_back([&, i] {
      const UpstreamConfig& up = config.servers[i];
      results[i] = discover_one(up, up.timeout.value_or(config.discovery_timeout));
    });
  }
  for (std::thread& w : workers) w.join();
  return results;
}

}  // namespace tamamo
