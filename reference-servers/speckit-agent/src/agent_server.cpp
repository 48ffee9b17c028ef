#include "agent_server.hpp"

#include "agent_errors.hpp"
#include "tool_catalog.hpp"
#include "workflows.hpp"

#include "mcpref/jsonrpc.hpp"
#include "mcpref/line_reader.hpp"
#include "mcpref/stdio_server.hpp"
#include "mcpref/tool_result.hpp"
#include "mcpref/version_negotiation.hpp"

#include <fmt/format.h>

#include <csignal>

namespace speckit {

using mcpref::Json;
namespace rpc = mcpref::rpc;

namespace {

const std::vector<std::string> kVersions{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};

std::optional<Json> progress_token(const Json& params) {
  if (!params.is_object() || !params.contains("_meta") || !params["_meta"].is_object()) return std::nullopt;
  const Json& meta = params["_meta"];
  auto it = meta.find("progressToken");
  if (it == meta.end() || !(it->is_string() || it->is_number_integer())) return std::nullopt;
  return *it;
}

}  // namespace

AgentServer::AgentServer(AgentOptions options) : options_(options) { register_methods(); }

AgentServer::~AgentServer() { stop_all(StopReason::Shutdown); }

void AgentServer::register_methods() {
  dispatcher_.on_request("initialize", [](const Json& params) {
    Json result = Json::object();
    result["protocolVersion"] = mcpref::negotiate_protocol_version(params, kVersions);
    result["capabilities"] = Json{{"tools", Json{{"listChanged", true}}}};
    result["serverInfo"] = Json{{"name", kServerName}, {"version", kServerVersion}};
    return result;
  });
  dispatcher_.on_request("ping", [](const Json&) { return Json::object(); });
  dispatcher_.on_request("tools/list", [](const Json& params) {
    // One page holds every tool, so no cursor was ever issued: any cursor is one we do not know.
    if (params.is_object() && params.contains("cursor"))
      throw rpc::RpcError(rpc::kInvalidParams, "unknown cursor: this server lists every tool on one page");
    return Json{{"tools", tool_definitions()}};
  });
  dispatcher_.on_request("shutdown", [this](const Json&) {
    shutdown_requested_ = true;
    return Json(nullptr);
  });
  dispatcher_.on_notification("exit", [this](const Json&) { exit_status_ = shutdown_requested_ ? 0 : 1; });
  dispatcher_.on_notification("$/cancelRequest", [this](const Json& params) {
    if (params.is_object() && params.contains("id")) cancel(params["id"], StopReason::CancelRequest);
  });
  dispatcher_.on_notification("notifications/cancelled", [this](const Json& params) {
    if (params.is_object() && params.contains("requestId"))
      cancel(params["requestId"], StopReason::CancelledNotification);
  });
  dispatcher_.on_notification("notifications/initialized", [](const Json&) {});
}

void AgentServer::send(const Json& message) {
  std::lock_guard lock(out_mutex_);
  mcpref::write_all(options_.out_fd, mcpref::to_line(message) + "\n");
}

int AgentServer::run() {
  std::signal(SIGPIPE, SIG_IGN);
  mcpref::LineReader reader(options_.in_fd);
  while (!exit_status_) {
    auto in = reader.next();
    if (in.status == mcpref::LineReader::Status::Eof || in.status == mcpref::LineReader::Status::Error) break;
    if (in.status == mcpref::LineReader::Status::TooLong) {
      send(rpc::make_error(nullptr, rpc::kParseError,
                           fmt::format("Parse error: a message of {} bytes exceeds the {}-byte limit", in.discarded,
                                       reader.max_line_bytes())));
      continue;
    }
    handle_line(in.line);
  }
  stop_all(StopReason::Shutdown);
  return exit_status_.value_or(0);
}

void AgentServer::handle_line(const std::string& line) {
  if (line.find_first_not_of(" \t\r") == std::string::npos) return;
  auto parsed = rpc::parse_json_text(line);
  if (!parsed.ok) return send(parsed.error_reply);
  if (!parsed.value.is_object()) {
    if (auto reply = dispatcher_.handle_value(parsed.value)) send(*reply);
    return;
  }
  auto classified = rpc::classify(parsed.value);
  if (auto* error = std::get_if<Json>(&classified)) return send(*error);
  const auto& message = std::get<rpc::Message>(classified);
  if (message.kind == rpc::Message::Kind::Request && shutdown_requested_) {
    // After shutdown only exit is meaningful (the document's LSP-style lifecycle).
    return send(rpc::make_error(message.id, rpc::kInvalidRequest,
                                "the server is shutting down; only the exit notification is accepted"));
  }
  if (message.kind == rpc::Message::Kind::Request && message.method == "tools/call")
    return start_call(message.id, message.params);
  if (auto reply = dispatcher_.handle_message(message)) send(*reply);
}

void AgentServer::start_call(const Json& id, const Json& params) {
  WorkflowCall checked;
  try {
    checked = parse_tool_call(params);
  } catch (const rpc::RpcError& e) {
    return send(rpc::make_error(id, e.code(), e.what(), e.data()));
  }
  reap_finished();
  std::lock_guard lock(calls_mutex_);
  std::string key = mcpref::to_line(id);
  std::size_t running = 0;
  for (const auto& c : calls_) {
    if (c->finished) continue;
    ++running;
    if (c->id_key == key)
      return send(rpc::make_error(id, rpc::kInvalidRequest, "a request with id " + key + " is still in progress"));
  }
  if (running >= options_.max_running_calls)
    return send(rpc::make_error(id, kToolExecutionError,
                                fmt::format("too many tool calls in progress ({}); wait for one to finish", running)));
  auto call = std::make_unique<RunningCall>();
  call->id_key = key;
  call->token = std::make_shared<CancelToken>(std::chrono::steady_clock::now() + options_.tool_timeout);
  RunningCall& ref = *call;
  calls_.push_back(std::move(call));
  ref.thread = std::thread([this, &ref, id, params] { work(ref, id, params); });
}

void AgentServer::work(RunningCall& call, Json id, Json params) {
  auto token = progress_token(params);
  WorkContext context(
      *call.token,
      [this, token](int done, int total, const std::string& message) {
        if (!token) return;  // MCP: progress only for a request that asked for it
        Json p = Json::object();
        p["progressToken"] = *token;
        p["progress"] = done;
        p["total"] = total;
        p["message"] = message;
        send(Json{{"jsonrpc", "2.0"}, {"method", "notifications/progress"}, {"params", p}});
      },
      options_.step_pause);
  std::optional<Json> reply;
  try {
    Json result = mcpref::tool_success(run_workflow(parse_tool_call(params), context));
    result["isError"] = false;
    reply = rpc::make_result(id, result);
  } catch (const Stopped& s) {
    if (s.reason() == StopReason::CancelRequest)
      reply = rpc::make_error(id, kCancelled, "Request cancelled", Json{{"id", id}});
  } catch (const DeadlineExceeded&) {
    reply = rpc::make_error(id, kTimeout,
                            fmt::format("Operation timed out after {} ms", options_.tool_timeout.count()),
                            Json{{"timeout_ms", options_.tool_timeout.count()}});
  } catch (const rpc::RpcError& e) {
    reply = rpc::make_error(id, e.code(), e.what(), e.data());
  } catch (const std::exception& e) {
    reply = rpc::make_error(id, rpc::kInternalError, std::string("Internal error: ") + e.what());
  }
  if (reply) send(*reply);
  call.finished = true;
}

void AgentServer::cancel(const Json& id, StopReason reason) {
  std::string key = mcpref::to_line(id);
  std::lock_guard lock(calls_mutex_);
  for (auto& c : calls_)
    if (c->id_key == key && !c->finished) c->token->cancel(reason);
}

void AgentServer::reap_finished() {
  std::lock_guard lock(calls_mutex_);
  for (auto it = calls_.begin(); it != calls_.end();) {
    if ((*it)->finished) {
      if ((*it)->thread.joinable()) (*it)->thread.join();
      it = calls_.erase(it);
    } else {
      ++it;
    }
  }
}

void AgentServer::stop_all(StopReason reason) {
  {
    std::lock_guard lock(calls_mutex_);
    for (auto& c : calls_) c->token->cancel(reason);
  }
  std::lock_guard lock(calls_mutex_);
  for (auto& c : calls_)
    if (c->thread.joinable()) c->thread.join();
  calls_.clear();
}

}  // namespace speckit
