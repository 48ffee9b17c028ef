// tools/list and tools/call.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "argument_check.hpp"
#include "features.hpp"
#include "png_image.hpp"
#include "session.hpp"
#include "tool_catalog.hpp"

namespace testserver {

namespace {

json text_content(std::string text) { return {{"type", "text"}, {"text", std::move(text)}}; }

json text_result(std::string text, bool is_error = false) {
  json r = {{"content", json::array({text_content(std::move(text))})}};
  if (is_error) r["isError"] = true;
  return r;
}

// Integers stay integers (and exact) unless the sum leaves the 64-bit range. nlohmann
// stores non-negative integers as unsigned, so both representations are tried.
json sum_of(const json& a, const json& b) {
  if (a.is_number_integer() && b.is_number_integer()) {
    const bool a_signed_ok = !a.is_number_unsigned() || a.get<std::uint64_t>() <= INT64_MAX;
    const bool b_signed_ok = !b.is_number_unsigned() || b.get<std::uint64_t>() <= INT64_MAX;
    std::int64_t s = 0;
    if (a_signed_ok && b_signed_ok &&
        !__builtin_add_overflow(a.get<std::int64_t>(), b.get<std::int64_t>(), &s)) {
      return s;
    }
    std::uint64_t u = 0;
    if (a.is_number_unsigned() && b.is_number_unsigned() &&
        !__builtin_add_overflow(a.get<std::uint64_t>(), b.get<std::uint64_t>(), &u)) {
      return u;
    }
  }
  return a.get<double>() + b.get<double>();
}

Outcome call_add(Session& s, const json& args) {
  json sum = sum_of(args["a"], args["b"]);
  if (sum.is_number_float() && !std::isfinite(sum.get<double>())) {
    return Outcome::ok(text_result("the sum is too large to represent as a JSON number", true));
  }
  if (s.version() < Version::v2025_06_18) return Outcome::ok(text_result(sum.dump()));
  json structured = {{"sum", sum}};
  json r = text_result(to_line(structured));  // the same JSON as text, for older clients
  r["structuredContent"] = s.faulty(Fault::structured_content_mismatch)
                               ? json{{"sum", "not a number"}}
                               : structured;
  return Outcome::ok(std::move(r));
}

// The progress token as sent, when there is one; a token of the wrong type is refused
// because the request then fails the CallToolRequest schema.
std::optional<json> progress_token(const json& params) {
  const json* meta = find_member(params, "_meta");
  if (meta == nullptr) return std::nullopt;
  if (!meta->is_object()) fail(rpc_code::invalid_params, "params._meta must be an object");
  const json* token = find_member(*meta, "progressToken");
  if (token == nullptr) return std::nullopt;
  if (!token->is_string() && !token->is_number_integer()) {
    fail(rpc_code::invalid_params, "params._meta.progressToken must be a string or an integer");
  }
  return *token;
}

Outcome call_slow_progress(Session& s, const Request& req, const json& args,
                           std::optional<json> token) {
  SlowJob job;
  job.id = req.id;
  job.progress_token = std::move(token);
  job.steps = args.contains("steps") ? static_cast<int>(args["steps"].get<double>()) : 3;
  job.delay_ms = args.contains("delay_ms") ? static_cast<int>(args["delay_ms"].get<double>()) : 50;
  job.version = s.version();
  if (req.in_batch) {
    auto r = s.slow_calls().run_inline(job);
    Outcome o = Outcome::ok(std::move(r.result));
    o.trailing = std::move(r.trailing);
    return o;
  }
  switch (s.slow_calls().start(std::move(job))) {
    case SlowCalls::Start::started: return Outcome::deferred();
    case SlowCalls::Start::id_in_use:
      fail(rpc_code::invalid_request, "a request with this id is still running");
    case SlowCalls::Start::too_many:
      fail(rpc_code::internal_error, "too many slow_progress calls running (limit " +
                                         std::to_string(SlowCalls::kMaxRunning) + ")");
  }
  return Outcome::silent();
}

}  // namespace

Outcome tools_list(Session& s, const Request& req) {
  // One page only: any cursor is one we never handed out.
  requested_offset(req.params, s.cursors(), 0, s.faulty(Fault::invalid_cursor_accepted));
  json tools = published_tools(s.options(), s.version());
  // list-varies-per-request: the answer depends on how often the list was asked for.
  static int asked = 0;
  if (s.modern() && s.faulty(Fault::list_varies_per_request) && ++asked % 2 == 0) {
    std::reverse(tools.begin(), tools.end());
  }
  return Outcome::ok({{"tools", std::move(tools)}});
}

Outcome tools_call(Session& s, const Request& req) {
  const std::string& name = require_string(req.params, "name", "params");
  static const json kNoArguments = json::object();
  const json* args = find_member(req.params, "arguments");
  if (args != nullptr && !args->is_object()) {
    fail(rpc_code::invalid_params, "params.arguments must be an object");
  }
  if (args == nullptr) args = &kNoArguments;
  auto token = progress_token(req.params);

  const json schema = input_schema_of(s.options(), s.version(), name);
  if (schema.is_null()) {
    std::string shown = name.size() > 100 ? name.substr(0, 100) + "..." : name;
    if (s.faulty(Fault::unknown_tool_iserror)) {
      return Outcome::ok(text_result("unknown tool '" + shown + "'", true));
    }
    fail(rpc_code::invalid_params, "unknown tool '" + shown + "'", {{"name", name}});
  }

  // Modern requests get log messages only when their _meta asks (LOG-02); this server never does.
  if (!s.modern() && s.logs().wants(LogLevel::debug)) {
    s.logs().emit(LogLevel::debug, "tools", {{"tool", name}, {"arguments", *args}});
  }
  if (!s.modern()) s.logs().emit(LogLevel::info, "tools", "tool " + name + " called");

  if (auto problem = check_arguments(schema, *args)) {
    // 2025-11-25 files bad argument values under tool execution errors; the older
    // revisions list invalid arguments among the protocol errors.
    const bool as_result = s.version() >= Version::v2025_11_25 &&
                           !s.faulty(Fault::invalid_args_protocol_error);
    if (as_result) return Outcome::ok(text_result(name + ": " + *problem, true));
    fail(rpc_code::invalid_params, name + ": " + *problem);
  }

  if (name == "echo") return Outcome::ok(text_result((*args)["text"].get<std::string>()));
  if (name == "add") return call_add(s, *args);
  if (name == "slow_progress") return call_slow_progress(s, req, *args, std::move(token));
  if (name == "fail") {
    if (!s.modern()) s.logs().emit(LogLevel::warning, "tools", "the fail tool failed, as it always does");
    // With the tasks extension on the request it runs as a task, whose isError result is still a
    // completed task (XTASK-09).
    if (s.modern() && Tasks::declared(s)) return s.tasks().start_with_result(s, "fail", text_result("this tool always fails (on purpose)", true));
    return Outcome::ok(text_result("this tool always fails (on purpose)", true));
  }
  if (name == "image") {
    return Outcome::ok({{"content", json::array({{{"type", "image"},
                                                  {"data", sample_png_base64()},
                                                  {"mimeType", "image/png"}}})}});
  }
  if (name == "delete_everything") {
    return Outcome::ok(text_result("nothing was deleted: this is a test server"));
  }
  if (name == kBadlyNamedTool) return Outcome::ok(text_result("hello"));
  if (name == "confirm") return call_confirm(s, req, *args);
  if (name == "brainstorm") return call_brainstorm(s, req, *args);
  if (name == "touch_catalog") {
    const int streams = s.listens().tools_changed(req.id);
    return Outcome::ok(text_result("announced tools/list_changed on " + std::to_string(streams) + " listen stream(s)"));
  }
  if (name == "slow_report") return s.tasks().start_report(s, *args);
  if (name == "interview") return s.tasks().start_interview(s);
  if (name == "broken_job") return s.tasks().start_broken_job(s);
  if (name == "region_echo") return Outcome::ok(text_result((*args)["region"].get<std::string>()));
  fail(rpc_code::internal_error, "tool '" + name + "' is listed but has no implementation");
}

}  // namespace testserver
