#include "mcpref/reconnecting_client.hpp"

#include "mcpref/jsonrpc.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <thread>

namespace mcpref {

namespace {

// Thrown inside ensure_connected when the connection attempt failed in a retryable way.
struct ConnectFailed {
  std::string reason;
};

}  // namespace

ReconnectingClient::ReconnectingClient(ChannelFactory factory, ReconnectOptions options, Backoff::Random random)
    : factory_(std::move(factory)), options_(std::move(options)), random_(std::move(random)) {
  if (options_.accepted_versions.empty()) options_.accepted_versions = {options_.protocol_version};
}

ReconnectingClient::~ReconnectingClient() { shutdown(); }

void ReconnectingClient::emit(const std::string& line) const {
  if (sink_) sink_(line);
}

bool ReconnectingClient::connected() const {
  std::lock_guard lock(mutex_);
  return channel_ && channel_->is_open();
}

Json ReconnectingClient::initialize_result() const {
  std::lock_guard lock(mutex_);
  return initialize_result_;
}

void ReconnectingClient::drop(const std::shared_ptr<ClientChannel>& channel) {
  {
    std::lock_guard lock(mutex_);
    if (channel_ != channel) return;  // another caller replaced it already
    channel_.reset();
    lost_ = true;
  }
  if (channel) channel->close(options_.close_grace);
}

std::shared_ptr<ClientChannel> ReconnectingClient::ensure_connected() {
  std::lock_guard lock(mutex_);
  if (channel_ && channel_->is_open()) return channel_;
  if (channel_) {
    // It died since the last use: reap it before starting another.
    channel_->close(options_.close_grace);
    channel_.reset();
    lost_ = true;
  }
  if (lost_ && !options_.restart) throw ServerUnavailable("the server is gone and restarting it is turned off");
  std::shared_ptr<ClientChannel> channel(factory_());
  channel->on_request([](const std::string& method, const Json&) -> Json {
    if (method == "ping") return Json::object();
    throw rpc::RpcError(rpc::kMethodNotFound, "Method not found: " + method);
  });
  ++starts_;
  Json result;
  try {
    channel->open(options_.initialize_timeout);
    Json params = {{"protocolVersion", options_.protocol_version},
                   {"capabilities", options_.capabilities},
                   {"clientInfo", {{"name", options_.client_name}, {"version", options_.client_version}}}};
    result = channel->request("initialize", params, options_.initialize_timeout);
  } catch (const RequestTimeout&) {
    // An initialize is never cancelled: the connection that did not answer it is dropped.
    channel->close(options_.close_grace);
    throw ConnectFailed{fmt::format("initialize got no answer within {} ms", options_.initialize_timeout.count())};
  } catch (const ServerError& e) {
    channel->close(options_.close_grace);
    throw ConnectFailed{fmt::format("initialize was refused: {} ({})", e.what(), e.code())};
  } catch (const ChannelClosed& e) {
    channel->close(options_.close_grace);
    throw ConnectFailed{e.what()};
  }
  std::string version = result.is_object() && result.contains("protocolVersion") && result["protocolVersion"].is_string()
                            ? result["protocolVersion"].get<std::string>()
                            : "";
  auto& ok = options_.accepted_versions;
  if (std::find(ok.begin(), ok.end(), version) == ok.end()) {
    channel->close(options_.close_grace);
    throw ServerUnavailable(
        version.empty() ? "the server's initialize answer names no protocolVersion"
                        : fmt::format("the server answered protocol version {}, which this client does not speak", version));
  }
  try {
    channel->notify("notifications/initialized", Json::object());
  } catch (const ChannelClosed& e) {
    channel->close(options_.close_grace);
    throw ConnectFailed{e.what()};
  }
  channel_ = channel;
  initialize_result_ = result;
  return channel;
}

void ReconnectingClient::connect() { call("", nullptr, std::chrono::milliseconds(0)); }

Json ReconnectingClient::call(const std::string& method, const Json& params, std::chrono::milliseconds timeout,
                              bool retry) {
  Backoff backoff(options_.backoff, random_);
  const bool connect_only = method.empty();
  for (int attempt = 1;; ++attempt) {
    std::string failure;
    try {
      auto channel = ensure_connected();
      if (connect_only) return Json();
      try {
        return channel->request(method, params, timeout);
      } catch (const RequestTimeout& e) {
        failure = e.what();
        // Tell the server to stop working on it, so nothing is left running for nobody.
        try {
          channel->notify("notifications/cancelled",
                          {{"requestId", e.id()}, {"reason", fmt::format("no answer within {} ms", timeout.count())}});
        } catch (const ChannelClosed&) {
        }
        if (!retry) throw;
      } catch (const ChannelClosed& e) {
        failure = e.what();
        drop(channel);
      }
    } catch (const ConnectFailed& e) {
      failure = e.reason;
    }
    auto delay = retry ? backoff.next() : std::nullopt;
    if (!delay)
      throw ServerUnavailable(fmt::format("gave up after {} attempt{}: {}", attempt,
                                          attempt == 1 ? "" : "s", failure));
    emit(fmt::format("{}; retrying in {} ms (retry {} of {})", failure, delay->count(), backoff.retries(),
                     options_.backoff.max_retries));
    std::this_thread::sleep_for(*delay);
  }
}

void ReconnectingClient::shutdown() {
  std::shared_ptr<ClientChannel> channel;
  {
    std::lock_guard lock(mutex_);
    channel.swap(channel_);
  }
  if (channel) channel->close(options_.close_grace);
}

}  // namespace mcpref
