#include "mcp_session.hpp"

#include "mcpref/jsonrpc.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <thread>

namespace spectui {

using mcpref::Json;
using Kind = CommandFailed::Kind;

namespace {

const std::vector<std::string> kAcceptedVersions{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};

std::string seconds_text(std::chrono::milliseconds ms) {
  return ms.count() % 1000 == 0 ? fmt::format("{} s", ms.count() / 1000) : fmt::format("{:.1f} s", ms.count() / 1000.0);
}

// The text of a tools/call result: its text content items, one per line ("stdout" and "stderr"
// of a tool arrive as separate items and are shown in order).
std::string result_text(const Json& result) {
  std::string out;
  if (result.is_object() && result.contains("content") && result["content"].is_array())
    for (const auto& item : result["content"])
      if (item.is_object() && item.value("type", "") == "text" && item.contains("text") && item["text"].is_string())
        out += (out.empty() ? "" : "\n") + item["text"].get<std::string>();
  return out.empty() ? std::string("(the tool returned no text)") : out;
}

// What the user reads for a JSON-RPC error code of the document's table.
std::string explain(int code, const std::string& tool, const std::string& message) {
  switch (code) {
    case -32000: return tool + " failed: " + message;
    case -32001: return tool + " timed out in the agent: " + message;
    case -32002: return tool + " was cancelled";
    case -32601: return "the agent does not know the method for " + tool + ": " + message;
    case -32602: return "the agent refused the input for " + tool + ": " + message;
    case -32603: return "the agent had an internal error running " + tool + ": " + message;
    default: return fmt::format("{} failed with error {}: {}", tool, code, message);
  }
}

}  // namespace

McpSession::McpSession(ChannelFactory factory, SessionOptions options, OutputLog& log)
    : factory_(std::move(factory)), options_(options), log_(log) {}

McpSession::~McpSession() { shutdown(); }

bool McpSession::connected() const {
  std::lock_guard lock(mutex_);
  return channel_ && channel_->is_open();
}

std::vector<std::string> McpSession::tools() const {
  std::lock_guard lock(mutex_);
  return tools_;
}

std::string McpSession::server_description() const {
  std::lock_guard lock(mutex_);
  return server_;
}

void McpSession::drop_channel() {
  std::shared_ptr<mcpref::ClientChannel> old;
  {
    std::lock_guard lock(mutex_);
    old.swap(channel_);
  }
  if (old) old->close(std::chrono::milliseconds(500));
}

void McpSession::connect() {
  mcpref::Backoff backoff(options_.backoff);
  for (;;) {
    try {
      return connect_once();
    } catch (const CommandFailed& e) {
      drop_channel();
      bool aborted;
      {
        std::lock_guard lock(mutex_);
        aborted = aborted_;
      }
      if (aborted) throw CommandFailed(Kind::Cancelled, "interrupted");
      auto delay = e.recoverable() ? backoff.next() : std::nullopt;
      if (!delay || backoff.retries() > options_.retries) throw;
      log_.line(fmt::format("Retrying the connection ({} of {}) in {} ms: {}", backoff.retries(), options_.retries,
                            delay->count(), e.what()));
      std::this_thread::sleep_for(*delay);
    }
  }
}

void McpSession::connect_once() {
  std::shared_ptr<mcpref::ClientChannel> channel = factory_();
  channel->on_notification([this](const std::string& m, const Json& p) { on_notification(m, p); });
  channel->on_request([this](const std::string& method, const Json& params) -> Json {
    if (method == "ping") return Json::object();
    if (method == "sampling/createMessage") {
      // spec-tui declares sampling (the document's capabilities) but carries no model: it
      // answers deterministically and shows the request, so the agent is never left waiting.
      log_.detail("sampling/createMessage from the agent: " + mcpref::to_line(params));
      log_.line("The agent asked for a model completion; spec-tui has no model and answered that.");
      return Json{{"role", "assistant"},
                  {"content", {{"type", "text"}, {"text", "spec-tui has no language model attached; no completion."}}},
                  {"model", "none"},
                  {"stopReason", "endTurn"}};
    }
    throw mcpref::rpc::RpcError(mcpref::rpc::kMethodNotFound, "spec-tui does not serve " + method);
  });
  channel->on_request_sent([this](const std::string& method, const Json& id) {
    if (method != "tools/call") return;
    std::lock_guard lock(mutex_);
    running_id_ = id;
  });
  {
    std::lock_guard lock(mutex_);
    if (aborted_) throw CommandFailed(Kind::Cancelled, "interrupted");
    connecting_ = channel;
  }
  struct Clear {
    McpSession* s;
    ~Clear() {
      std::lock_guard lock(s->mutex_);
      s->connecting_.reset();
    }
  } clear{this};
  try {
    channel->open(options_.timeout);
    Json init = channel->request("initialize",
                                 Json{{"protocolVersion", kProtocolVersion},
                                      {"capabilities", Json{{"sampling", Json::object()}}},
                                      {"clientInfo", Json{{"name", kClientName}, {"version", kClientVersion}}}},
                                 options_.timeout);
    std::string version = init.is_object() ? init.value("protocolVersion", "") : "";
    if (std::find(kAcceptedVersions.begin(), kAcceptedVersions.end(), version) == kAcceptedVersions.end()) {
      log_.detail("initialize answer: " + mcpref::to_line(init));
      channel->close(std::chrono::milliseconds(500));
      throw CommandFailed(Kind::Protocol, "the agent speaks MCP protocol '" + version + "', which spec-tui does not (it speaks " +
                                              kProtocolVersion + ")");
    }
    channel->notify("notifications/initialized", nullptr);
    // MCP: no tools/list to a server that did not declare the tools capability; it then
    // offers no tool, which a command reports.
    bool has_tools = init.is_object() && init.contains("capabilities") && init["capabilities"].is_object() &&
                     init["capabilities"].contains("tools") && !init["capabilities"]["tools"].is_null() &&
                     init["capabilities"]["tools"] != false;
    Json listed = has_tools ? channel->request("tools/list", Json::object(), options_.timeout) : Json::object();
    std::vector<std::string> names;
    if (listed.is_object() && listed.contains("tools") && listed["tools"].is_array())
      for (const auto& t : listed["tools"])
        if (t.is_object() && t.contains("name") && t["name"].is_string()) names.push_back(t["name"]);
    Json info = init.value("serverInfo", Json::object());
    std::lock_guard lock(mutex_);
    channel_ = channel;
    tools_ = names;
    server_ = fmt::format("{} {} (protocol {})", info.is_object() ? info.value("name", "?") : "?",
                          info.is_object() ? info.value("version", "?") : "?", version);
  } catch (const mcpref::RequestTimeout& e) {
    log_.detail(std::string("handshake timeout: ") + e.what());
    channel->close(std::chrono::milliseconds(500));
    throw CommandFailed(Kind::Timeout, "the agent did not answer within " + seconds_text(options_.timeout) +
                                           " while connecting");
  } catch (const mcpref::ServerError& e) {
    log_.detail(fmt::format("handshake error {}: {} {}", e.code(), e.what(), mcpref::to_line(e.data())));
    channel->close(std::chrono::milliseconds(500));
    throw CommandFailed(Kind::Protocol, std::string("the agent refused the connection: ") + e.what());
  } catch (const mcpref::ChannelClosed& e) {
    log_.detail(std::string("connection failed: ") + e.what());
    throw CommandFailed(Kind::Connection, std::string("cannot reach the agent: ") + e.what(), true);
  }
}

void McpSession::on_notification(const std::string& method, const Json& params) {
  if (method != "notifications/progress" || !params.is_object()) return;
  ProgressListener listener;
  ProgressModel snapshot;
  {
    std::lock_guard lock(mutex_);
    // Progress counts only for the token of the call that is running.
    auto token = params.find("progressToken");
    if (!progress_token_ || token == params.end() || !token->is_string() || *token != *progress_token_) return;
    auto value = params.find("progress");
    if (value == params.end() || !value->is_number()) return;
    std::optional<double> total;
    if (params.contains("total") && params["total"].is_number()) total = params["total"].get<double>();
    std::string message = params.contains("message") && params["message"].is_string() ? params["message"].get<std::string>() : "";
    if (!progress_.update(value->get<double>(), total, message)) return;
    snapshot = progress_;
    listener = listener_;
  }
  log_.detail("progress " + mcpref::to_line(params));
  if (listener) listener(snapshot);
}

std::string McpSession::call_tool(const std::string& tool, const Json& arguments, ProgressListener listener) {
  {
    std::lock_guard lock(mutex_);
    listener_ = std::move(listener);
    cancel_requested_ = false;
  }
  mcpref::Backoff backoff(options_.backoff);
  for (;;) {
    try {
      if (!connected()) connect();
      return call_once(tool, arguments);
    } catch (const CommandFailed& e) {
      bool cancelled;
      {
        std::lock_guard lock(mutex_);
        cancelled = cancel_requested_ || aborted_;
        if (aborted_) throw CommandFailed(Kind::Cancelled, "interrupted");
      }
      auto delay = e.recoverable() && !cancelled ? backoff.next() : std::nullopt;
      if (!delay || backoff.retries() > options_.retries) throw;
      log_.line(fmt::format("Retrying {} ({} of {}) in {} ms: {}", tool, backoff.retries(), options_.retries,
                            delay->count(), e.what()));
      std::this_thread::sleep_for(*delay);
    }
  }
}

std::string McpSession::call_once(const std::string& tool, const Json& arguments) {
  std::shared_ptr<mcpref::ClientChannel> channel;
  std::string token;
  {
    std::lock_guard lock(mutex_);
    channel = channel_;
    if (std::find(tools_.begin(), tools_.end(), tool) == tools_.end())
      throw CommandFailed(Kind::ToolError, "the agent does not offer " + tool + " (it lists " +
                                               std::to_string(tools_.size()) + " tools, not this one)");
    token = fmt::format("tool-{}", ++calls_);
    progress_token_ = token;
    running_id_.reset();
    progress_.reset();
  }
  auto done = [this] {
    std::lock_guard lock(mutex_);
    progress_token_.reset();
    running_id_.reset();
  };
  Json params{{"name", tool}, {"arguments", arguments}, {"_meta", Json{{"progressToken", token}}}};
  log_.detail("tools/call " + mcpref::to_line(params));
  try {
    Json result = channel->request("tools/call", params, options_.timeout);
    done();
    log_.detail("result " + mcpref::to_line(result));
    if (result.is_object() && result.value("isError", false)) throw CommandFailed(Kind::ToolError, tool + " failed: " + result_text(result));
    return result_text(result);
  } catch (const mcpref::RequestTimeout& e) {
    done();
    // The document: on timeout send $/cancelRequest with the request's id, show a timeout error.
    log_.detail(std::string("timeout: ") + e.what());
    try {
      channel->notify("$/cancelRequest", Json{{"id", e.id()}});
    } catch (const mcpref::ChannelClosed& closed) {
      log_.detail(std::string("could not send $/cancelRequest: ") + closed.what());
    }
    throw CommandFailed(Kind::Timeout, "Timed out after " + seconds_text(options_.timeout) + " waiting for " + tool +
                                           "; asked the agent to cancel it");
  } catch (const mcpref::ServerError& e) {
    done();
    log_.detail(fmt::format("error {} from {}: {} data={}", e.code(), tool, e.what(), mcpref::to_line(e.data())));
    Kind kind = e.code() == -32002 ? Kind::Cancelled : e.code() == -32602 ? Kind::InvalidInput : Kind::ToolError;
    throw CommandFailed(kind, explain(e.code(), tool, e.what()), e.code() == -32603 || e.code() == -32001);
  } catch (const mcpref::ChannelClosed& e) {
    done();
    log_.detail(std::string("connection lost: ") + e.what());
    drop_channel();
    throw CommandFailed(Kind::Connection, std::string("lost the connection to the agent: ") + e.what(), true);
  }
}

bool McpSession::cancel() {
  std::shared_ptr<mcpref::ClientChannel> channel;
  Json id;
  {
    std::lock_guard lock(mutex_);
    if (!running_id_ || !channel_) return false;
    cancel_requested_ = true;
    channel = channel_;
    id = *running_id_;
  }
  try {
    channel->notify("$/cancelRequest", Json{{"id", id}});
    log_.detail("sent $/cancelRequest for id " + id.dump());
  } catch (const mcpref::ChannelClosed& e) {
    log_.detail(std::string("could not send $/cancelRequest: ") + e.what());
    return false;
  }
  return true;
}

void McpSession::shutdown() {
  std::shared_ptr<mcpref::ClientChannel> channel;
  {
    std::lock_guard lock(mutex_);
    channel.swap(channel_);
  }
  if (!channel) return;
  // The document's end of session: the shutdown request, its answer, then the exit notification.
  // exit follows once shutdown is settled: answered, refused by a server that does not know it,
  // or unanswered within its deadline (a hung server still gets told to go).
  if (channel->is_open()) {
    try {
      channel->request("shutdown", nullptr, options_.shutdown_timeout);
    } catch (const std::exception& e) {
      log_.detail(std::string("shutdown: ") + e.what());
    }
    try {
      channel->notify("exit", nullptr);
    } catch (const std::exception& e) {
      log_.detail(std::string("exit: ") + e.what());
    }
  }
  channel->close(std::chrono::milliseconds(1000));
}

void McpSession::abort() {
  std::shared_ptr<mcpref::ClientChannel> channel;
  {
    std::lock_guard lock(mutex_);
    aborted_ = true;
    channel = channel_ ? channel_ : connecting_;
  }
  if (channel) channel->close(std::chrono::milliseconds(200));
}

}  // namespace spectui
