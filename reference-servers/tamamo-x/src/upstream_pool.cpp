#include "upstream_pool.hpp"

#include "mutants.hpp"
#include "upstream_channel.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace tamamo {

using mcpref::Json;

namespace {

// Restarts back off from 100 ms to 5 s, indefinitely: the server may come back (a fixed binary,
// a freed port), and every call in between fails fast with the reason instead of waiting.
mcpref::BackoffPolicy restart_policy() {
  mcpref::BackoffPolicy policy;
  policy.initial = std::chrono::milliseconds(100);
  policy.max_delay = std::chrono::milliseconds(5000);
  policy.max_retries = 1000000;
  return policy;
}

}  // namespace

UpstreamPool::UpstreamPool(const std::vector<UpstreamConfig>& servers, std::chrono::milliseconds connect_timeout)
    : connect_timeout_(connect_timeout) {
  for (const UpstreamConfig& config : servers) {
    auto up = std::make_unique<Upstream>();
    up->config = config;
    up->backoff = mcpref::Backoff(restart_policy());
    upstreams_[config.name] = std::move(up);
  }
}

UpstreamPool::~UpstreamPool() { stop_all(); }

std::shared_ptr<mcpref::ClientChannel> UpstreamPool::ensure_running(Upstream& up) {
  std::lock_guard lock(up.mutex);
  if (up.channel && up.channel->is_open()) return up.channel;
  if (up.channel) {
    if (mutant("no-restart")) throw mcpref::ChannelClosed(fmt::format("server {} is gone", up.config.name));
    std::fprintf(stderr, "tamamo-x-mcp: server %s is gone; starting it again\n", up.config.name.c_str());
    up.channel->close(std::chrono::milliseconds(200));  // reaps what is left of it
    up.channel.reset();
  }
  auto now = std::chrono::steady_clock::now();
  if (now < up.retry_after) {
    throw mcpref::ChannelClosed(fmt::format("server {} could not be started ({}); next attempt in {} ms",
        up.config.name, up.last_failure,
        std::chrono::duration_cast<std::chrono::milliseconds>(up.retry_after - now).count()));
  }
  std::shared_ptr<mcpref::ClientChannel> channel;
  try {
    channel = make_channel(up.config);
    ++up.starts;
    connect_upstream(*channel, up.config.timeout.value_or(connect_timeout_));
  } catch (const std::exception& e) {
    if (channel) channel->close(std::chrono::milliseconds(200));
    up.last_failure = e.what();
    up.retry_after = std::chrono::steady_clock::now() + up.backoff.next().value_or(std::chrono::milliseconds(5000));
    throw mcpref::ChannelClosed(fmt::format("server {} could not be started: {}", up.config.name, e.what()));
  }
  up.backoff.reset();
  up.channel = channel;
  return channel;
}

Json UpstreamPool::call_tool(const std::string& server, const std::string& tool, const Json& arguments,
                             std::chrono::milliseconds timeout) {
  auto it = upstreams_.find(server);
  if (it == upstreams_.end()) throw mcpref::ChannelClosed(fmt::format("server {} is not configured", server));
  std::shared_ptr<mcpref::ClientChannel> channel = ensure_running(*it->second);
  try {
    return channel->request("tools/call", {{"name", tool}, {"arguments", arguments}}, timeout);
  } catch (const mcpref::RequestTimeout& e) {
    // We stop waiting, so the server may stop working on it (MCP cancellation); best effort.
    try {
      channel->notify("notifications/cancelled",
                      {{"requestId", e.id()}, {"reason", fmt::format("no answer within {} ms", timeout.count())}});
    } catch (const std::exception&) {
    }
    throw;
  } catch (const mcpref::ChannelClosed& e) {
    throw mcpref::ChannelClosed(fmt::format("server {} went away during the call: {}", server, e.what()));
  }
}

int UpstreamPool::starts(const std::string& server) const {
  auto it = upstreams_.find(server);
  if (it == upstreams_.end()) return 0;
  std::lock_guard lock(it->second->mutex);
  return it->second->starts;
}

void UpstreamPool::stop_all() {
  for (auto& [name, up] : upstreams_) {
    std::shared_ptr<mcpref::ClientChannel> channel;
    {
      std::lock_guard lock(up->mutex);
      channel = std::move(up->channel);
    }
    if (channel) channel->close(std::chrono::milliseconds(500));
  }
}

}  // namespace tamamo
