#include "session.hpp"

#include "fuzz_faults.hpp"

#include <cstdio>
#include <exception>
#include <unistd.h>

#include "features.hpp"
#include "modern.hpp"

namespace testserver {

namespace {

using Handler = Outcome (*)(Session&, const Request&);

struct MethodEntry {
  std::string_view name;
  Capability needs;
  Handler handler;
};

// Every method after initialize; each is only served when its capability is.
constexpr MethodEntry kMethods[] = {
    {"tools/list", Capability::tools, tools_list},
    {"tools/call", Capability::tools, tools_call},
    {"resources/list", Capability::resources, resources_list},
    {"resources/templates/list", Capability::resources, resources_templates_list},
    {"resources/read", Capability::resources, resources_read},
    {"resources/subscribe", Capability::resources, resources_subscribe},
    {"resources/unsubscribe", Capability::resources, resources_unsubscribe},
    {"prompts/list", Capability::prompts, prompts_list},
    {"prompts/get", Capability::prompts, prompts_get},
    {"completion/complete", Capability::completions, completion_complete},
    {"logging/setLevel", Capability::logging, logging_set_level},
};

std::string_view capability_name(Capability c) {
  switch (c) {
    case Capability::tools: return "tools";
    case Capability::resources: return "resources";
    case Capability::prompts: return "prompts";
    case Capability::logging: return "logging";
    case Capability::completions: return "completions";
  }
  return "?";
}

// MCP ids are strings or integers (JSON-RPC also allows null and fractions; MCP does not).
bool valid_id(const json& id) { return id.is_string() || id.is_number_integer(); }

std::string describe_type(const json& v) {
  if (v.is_number_integer()) return "an integer";
  if (v.is_number_float()) return "a non-integer number (or an integer too large for 64 bits)";
  if (v.is_null()) return "null";
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  if (v.is_boolean()) return "a boolean";
  return "a string";
}

std::string shorten(const std::string& s, std::size_t max = 100) {
  return s.size() > max ? s.substr(0, max) + "..." : s;
}

// wrong-id: a value of the same type that is certainly not the one the client sent.
json altered_id(const json& id) {
  if (id.is_string()) return id.get<std::string>() + "-wrong";
  if (id.is_number_unsigned()) return id.get<std::uint64_t>() ^ 0x40000000ULL;
  return id.get<std::int64_t>() ^ 0x40000000LL;
}

}  // namespace

Session::Session(const Options& opt, Wire& wire)
    : opt_(opt),
      wire_(wire),
      logs_(wire, serves(opt, Capability::logging), opt.fault == Fault::log_level_ignored),
      slow_(wire, opt.fault),
      listens_(wire, opt.fault) {}

void Session::on_line(std::string_view line) {
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return;  // blank: no message
  auto parsed = parse_message_text(line);
  if (auto* failure = std::get_if<ParseFailure>(&parsed)) {
    if (faulty(Fault::crash_on_bad_json)) {
      std::fprintf(stderr, "mcpspec-testserver: crash-on-bad-json: exiting with status 3\n");
      ::_exit(3);
    }
    wire_.send(wire_.error_response(nullptr, {rpc_code::parse_error,
                                              "Parse error: " + failure->message}));
    return;
  }
  json& msg = std::get<json>(parsed);
  if (msg.is_array()) {
    handle_batch(msg);
    return;
  }
  write_reply(handle_message(msg, false));
}

void Session::on_oversized(std::size_t bytes) {
  wire_.send(wire_.error_response(
      nullptr, {rpc_code::invalid_request, "message of " + std::to_string(bytes) +
                                               " bytes exceeds the 16 MiB line limit and was "
                                               "discarded"}));
}

void Session::on_end_of_input() { slow_.finish_all(); }

void Session::write_reply(const Reply& reply) {
  if (reply.message) {
    const json& msg = *reply.message;
    const bool list_result = reply.method == "tools/list" && msg.contains("result");
    if (list_result && faulty(Fault::stdout_flood)) {
      wire_.send_string_flood(std::size_t{64} << 20);
    } else if (list_result && faulty(Fault::embedded_newline)) {
      wire_.send_text_line(to_pretty(msg));
    } else {
      wire_.send(msg);
    }
    if (reply.method == "ping" && faulty(Fault::duplicate_response)) wire_.send(msg);
    if (reply.method == "initialize" && msg.contains("result") && faulty(Fault::garbage_stdout)) {
      wire_.send_text_line("mcpspec-testserver 0.1.0 ready (this banner is the garbage-stdout fault)");
    }
  }
  for (const json& t : reply.trailing) wire_.send(t);
}

Session::Reply Session::handle_message(const json& msg, bool in_batch) {
  auto invalid = [&](const json& id, std::string text) {
    return Reply{wire_.error_response(id, {rpc_code::invalid_request, "Invalid Request: " + text}),
                 {}, {}};
  };
  if (!msg.is_object()) {
    return invalid(nullptr, "a JSON-RPC message must be an object, got " + describe_type(msg));
  }
  if (apply_fuzz_fault(opt_.fault, msg, wire_)) return {};
  const json* id = find_member(msg, "id");
  const json readable_id = id != nullptr && valid_id(*id) ? *id : json(nullptr);
  const json* method = find_member(msg, "method");
  if (method == nullptr) {
    if (msg.contains("result") || msg.contains("error")) {
      // A response, but this server never sends requests: nothing to match it with.
      std::fprintf(stderr, "mcpspec-testserver: ignoring a response from the client (we sent no request)\n");
      return {};
    }
    return invalid(readable_id, "the message has no \"method\" and is not a response");
  }
  const json* version = find_member(msg, "jsonrpc");
  if (version == nullptr) return invalid(readable_id, "\"jsonrpc\" is missing (it must be \"2.0\")");
  if (!version->is_string() || *version != "2.0") {
    return invalid(readable_id, "\"jsonrpc\" must be the string \"2.0\", got " +
                                    shorten(to_line(*version), 40));
  }
  if (!method->is_string()) {
    return invalid(readable_id, "\"method\" must be a string, got " + describe_type(*method));
  }
  if (id != nullptr && !valid_id(*id)) {
    return invalid(nullptr, "\"id\" must be a string or an integer, got " + describe_type(*id));
  }
  const json* params = find_member(msg, "params");
  if (params != nullptr && !params->is_object()) {
    if (!params->is_array()) {
      return invalid(readable_id, "\"params\" must be an object, got " + describe_type(*params));
    }
    // JSON-RPC allows positional params, so this is well-formed but not what any MCP
    // method takes.
    if (id == nullptr) return {};
    return Reply{wire_.error_response(*id, {rpc_code::invalid_params,
                                            "params must be an object for MCP methods, got an array"}),
                 method->get<std::string>(), {}};
  }
  static const json kNoParams = json::object();
  const json& p = params != nullptr ? *params : kNoParams;
  const auto& name = method->get_ref<const std::string&>();
  if (id == nullptr) {
    handle_notification(name, p);
    return {};
  }
  return handle_request(name, *id, p, in_batch);
}

Session::Reply Session::handle_request(const std::string& method, const json& id,
                                       const json& params, bool in_batch) {
  if (second_ping_due_) {
    second_ping_due_ = false;
    wire_.send(json{{"jsonrpc", "2.0"}, {"id", "server-ping"}, {"method", "ping"}});
  }
  Outcome o;
  // A request carrying the modern _meta is served statelessly (modern.cpp); initialize, and any
  // request without that _meta, keep the legacy session rules, unless the server is modern-only.
  const bool modern = is_modern_request(params) || (opt_.modern_only && method != "initialize");
  modern_ = modern;
  client_caps_ = json::object();
  if (modern) {
    const json* meta = find_member(params, "_meta");
    const json* caps = meta != nullptr && meta->is_object()
                           ? find_member(*meta, "io.modelcontextprotocol/clientCapabilities")
                           : nullptr;
    if (caps != nullptr && caps->is_object()) client_caps_ = *caps;
  }
  try {
    const Request req{id, params, in_batch};
    if (opt_.modern_only && method == "initialize") o = refuse_initialize_modern_only();
    else o = modern ? route_modern(*this, method, req) : route(method, req);
    if (modern && o.kind == Outcome::Kind::result) finish_modern_result(*this, method, o.result);
  } catch (const RpcFailure& f) {
    o = Outcome::fail(f.error);
  } catch (const std::exception& e) {
    o = Outcome::fail({rpc_code::internal_error,
                       "internal error while handling " + shorten(method) + ": " + e.what()});
  }
  modern_ = false;
  Reply r{std::nullopt, method, std::move(o.trailing)};
  switch (o.kind) {
    case Outcome::Kind::result: r.message = wire_.result_response(id, std::move(o.result)); break;
    case Outcome::Kind::error: r.message = wire_.error_response(id, o.error); break;
    case Outcome::Kind::deferred:
    case Outcome::Kind::silent: break;
  }
  if (r.message && method == "tools/list" && faulty(Fault::wrong_id)) {
    (*r.message)["id"] = altered_id(id);
  }
  return r;
}

Outcome Session::route(const std::string& method, const Request& req) {
  if (method == "initialize") {
    if (req.in_batch) fail(rpc_code::invalid_request, "initialize must not be sent inside a batch");
    return initialize(req);
  }
  if (method == "ping") {
    if (faulty(Fault::hang_on_ping)) return Outcome::silent();
    return Outcome::ok(json::object());
  }
  if (!initialized_) {
    fail(rpc_code::invalid_request,
         "the session is not initialized: send initialize first (only ping may come before it)");
  }
  return serve_method(method, req);
}

Outcome Session::serve_method(const std::string& method, const Request& req) {
  for (const auto& m : kMethods) {
    if (m.name != method) continue;
    if (!serves(opt_, m.needs)) break;
    return m.handler(*this, req);
  }
  std::string text = "method not found: " + shorten(method);
  for (const auto& m : kMethods) {
    if (m.name == method) {
      text = "method not found: " + method + " (the server did not declare the " +
             std::string(capability_name(m.needs)) + " capability)";
    }
  }
  if (faulty(Fault::wrong_error_code)) fail(rpc_code::internal_error, text);
  fail(rpc_code::method_not_found, text, {{"method", method}});
}

Outcome Session::initialize(const Request& req) {
  if (initialized_) fail(rpc_code::invalid_request, "initialize was already answered in this session");
  const std::string& requested = require_string(req.params, "protocolVersion", "params");
  // Required by the spec; tolerated when absent, refused when of the wrong type.
  for (const char* key : {"capabilities", "clientInfo"}) {
    const json* v = find_member(req.params, key);
    if (v != nullptr && !v->is_object()) {
      fail(rpc_code::invalid_params, std::string("params.") + key + " must be an object");
    }
  }
  version_ = negotiate_version(requested);
  initialized_ = true;
  std::fprintf(stderr, "mcpspec-testserver: client asked for %s, speaking %s (profile %s, fault %s)\n",
               shorten(requested, 40).c_str(), std::string(version_text(version_)).c_str(),
               std::string(profile_name(opt_.profile)).c_str(),
               std::string(fault_name(opt_.fault)).c_str());
  json result = json::object();
  result["protocolVersion"] =
      faulty(Fault::no_initialize_version_check) ? std::string("2099-01-01") : std::string(version_text(version_));
  result["capabilities"] = capabilities_object(opt_, version_);
  if (!faulty(Fault::server_info_missing)) result["serverInfo"] = server_info(version_);
  result["instructions"] =
      "Test server of the mcpspec project: deterministic fixtures for conformance checks.";
  return Outcome::ok(std::move(result));
}

void Session::handle_notification(const std::string& method, const json& params) {
  if (method == "notifications/initialized") {
    if (!initialized_) {
      std::fprintf(stderr, "mcpspec-testserver: notifications/initialized before initialize, ignored\n");
      return;
    }
    if (faulty(Fault::respond_to_notification)) {
      wire_.send(json{{"jsonrpc", "2.0"}, {"id", nullptr}, {"result", json::object()}});
    }
    if (faulty(Fault::tools_without_capability) || faulty(Fault::list_changed_undeclared)) {
      wire_.send(Wire::notification("notifications/tools/list_changed", nullptr));
    }
    if (faulty(Fault::reused_request_id)) {
      // The same id again once the client has answered (by its next request it has): an
      // answered request does not free its id for reuse.
      wire_.send(json{{"jsonrpc", "2.0"}, {"id", "server-ping"}, {"method", "ping"}});
      second_ping_due_ = true;
    }
    if (faulty(Fault::log_without_capability)) {
      logs_.emit(LogLevel::info, "lifecycle", "client finished initialization");
    }
    return;
  }
  if (method == "notifications/cancelled") {
    const json* rid = find_member(params, "requestId");
    // Cancelling a subscriptions/listen request ends that subscription (nothing more is sent for it).
    if (rid != nullptr && valid_id(*rid) && !listens_.close(*rid)) slow_.cancel(*rid);
    return;
  }
  // Any other notification (roots/list_changed, progress, unknown ones) needs nothing from us.
}

void Session::handle_batch(const json& batch) {
  auto refuse = [&](std::string text) {
    wire_.send(wire_.error_response(nullptr, {rpc_code::invalid_request, "Invalid Request: " + text}));
  };
  if (!initialized_) {
    refuse("a batch cannot come before initialize (and initialize must not be batched)");
    return;
  }
  if (version_ != Version::v2025_03_26 || faulty(Fault::batch_rejected)) {
    refuse("JSON-RPC batches are only accepted when protocol 2025-03-26 was negotiated (this "
           "session speaks " + std::string(version_text(version_)) + ")");
    return;
  }
  if (batch.empty()) {
    refuse("an empty batch is not a valid request");
    return;
  }
  json replies = json::array();
  std::vector<json> trailing;
  for (const json& element : batch) {
    Reply r = handle_message(element, true);
    if (r.message) replies.push_back(std::move(*r.message));
    for (auto& t : r.trailing) trailing.push_back(std::move(t));
  }
  // Notifications alone get no reply at all, not an empty array.
  if (!replies.empty()) wire_.send(replies);
  for (const json& t : trailing) wire_.send(t);
}

}  // namespace testserver
