#include "faults.hpp"

#include <array>

namespace testserver {

namespace {

constexpr std::array kFaults = {
    FaultInfo{Fault::wrong_id, "wrong-id",
              "responses to tools/list carry an id the client never sent", false},
    FaultInfo{Fault::missing_jsonrpc, "missing-jsonrpc",
              "every response lacks the \"jsonrpc\" member", false},
    FaultInfo{Fault::respond_to_notification, "respond-to-notification",
              "answers notifications/initialized with a response (id null, empty result)", false},
    FaultInfo{Fault::result_and_error, "result-and-error",
              "error responses also carry a \"result\" member", false},
    FaultInfo{Fault::wrong_error_code, "wrong-error-code",
              "an unknown method is answered with -32603 instead of -32601", false},
    FaultInfo{Fault::crash_on_bad_json, "crash-on-bad-json",
              "exits with status 3 on a line that is not JSON instead of answering -32700", false},
    FaultInfo{Fault::garbage_stdout, "garbage-stdout",
              "prints a non-JSON banner line on stdout right after the initialize response", false},
    FaultInfo{Fault::hang_on_ping, "hang-on-ping", "never answers ping", false},
    FaultInfo{Fault::decreasing_progress, "decreasing-progress",
              "slow_progress reports progress values that go down (n, n-1, ..., 1; at least two)",
              false},
    FaultInfo{Fault::progress_after_response, "progress-after-response",
              "slow_progress sends one more progress notification after its response", false},
    FaultInfo{Fault::no_initialize_version_check, "no-initialize-version-check",
              "initialize always answers protocolVersion \"2099-01-01\"", false},
    FaultInfo{Fault::string_id_as_int, "string-id-as-int",
              "string request ids are echoed as numbers (\"7\" -> 7; non-numeric -> a hash)", false},
    FaultInfo{Fault::null_id_parse_error_missing, "null-id-parse-error-missing",
              "the -32700 parse-error response has no error.code", false},
    FaultInfo{Fault::resource_not_found_wrong_code, "resource-not-found-wrong-code",
              "resources/read of an unknown URI answers -32603 instead of -32002", false},
    FaultInfo{Fault::invalid_cursor_accepted, "invalid-cursor-accepted",
              "an invalid pagination cursor returns the first page instead of -32602", false},
    FaultInfo{Fault::bad_log_level_accepted, "bad-log-level-accepted",
              "logging/setLevel with an unknown level answers {} instead of -32602", false},
    FaultInfo{Fault::missing_required_prompt_arg_accepted, "missing-required-prompt-arg-accepted",
              "prompts/get greeting without the required \"name\" succeeds instead of -32602",
              false},
    FaultInfo{Fault::embedded_newline, "embedded-newline",
              "the tools/list response is pretty-printed over several lines", false},
    FaultInfo{Fault::stdout_flood, "stdout-flood",
              "answers tools/list with one 64 MiB line holding a bare JSON string (no response)",
              false},
    FaultInfo{Fault::ignore_stdin_eof, "ignore-stdin-eof",
              "keeps running after stdin reaches EOF (until SIGTERM)", false},
    FaultInfo{Fault::tools_without_capability, "tools-without-capability",
              "serves tools/list and tools/call and sends notifications/tools/list_changed "
              "without declaring the tools capability",
              false},
    FaultInfo{Fault::log_without_capability, "log-without-capability",
              "sends notifications/message (after initialized and on tool calls) without "
              "declaring the logging capability",
              false},
    FaultInfo{Fault::server_info_missing, "server-info-missing",
              "the initialize result has no serverInfo", false},
    FaultInfo{Fault::cancel_still_answers, "cancel-still-answers",
              "a cancelled slow_progress call still sends a response", false},
    FaultInfo{Fault::blob_not_base64, "blob-not-base64",
              "resources/read of test://static/blob returns a blob that is not base64", false},
    FaultInfo{Fault::tool_schema_not_object, "tool-schema-not-object",
              "the echo tool's inputSchema has type \"string\"", false},
    FaultInfo{Fault::duplicate_response, "duplicate-response",
              "ping is answered twice with the same id", false},
    FaultInfo{Fault::error_code_string, "error-code-string",
              "error.code is sent as a JSON string (\"-32601\") instead of an integer", false},
    FaultInfo{Fault::log_level_ignored, "log-level-ignored",
              "logging/setLevel is accepted but every log message is sent regardless of level",
              false},
    FaultInfo{Fault::structured_content_mismatch, "structured-content-mismatch",
              "add returns structuredContent that violates its outputSchema (2025-06-18+)", false},
    FaultInfo{Fault::progress_wrong_token, "progress-wrong-token",
              "slow_progress sends progress for a token no request carried", false},
    FaultInfo{Fault::batch_rejected, "batch-rejected",
              "JSON-RPC batches are rejected with -32600 even when 2025-03-26 was negotiated",
              false},
    FaultInfo{Fault::completion_over_100, "completion-over-100",
              "completion/complete returns 150 values (the limit is 100)", false},
    FaultInfo{Fault::tool_name_invalid, "tool-name-invalid",
              "tools/list also lists a tool named \"say hello, world!\" (spaces, comma, '!')",
              false},
    FaultInfo{Fault::missing_result_type, "missing-result-type",
              "(2026-07-28) results carry no resultType", false},
    FaultInfo{Fault::meta_not_required, "meta-not-required",
              "(2026-07-28) a request whose _meta lacks protocolVersion or clientCapabilities is "
              "served instead of getting -32602",
              false},
    FaultInfo{Fault::unsupported_version_wrong_code, "unsupported-version-wrong-code",
              "(2026-07-28) a request naming a version the server does not serve gets -32602 "
              "instead of -32022",
              false},
    FaultInfo{Fault::unsupported_version_no_list, "unsupported-version-no-list",
              "(2026-07-28) the -32022 error carries no data.supported list", false},
    FaultInfo{Fault::removed_method_answered, "removed-method-answered",
              "(2026-07-28) ping and logging/setLevel are answered with {} instead of -32601", false},
    FaultInfo{Fault::retired_not_found_code, "retired-not-found-code",
              "(2026-07-28) resources/read of an unknown URI answers the retired -32002 instead "
              "of -32602",
              false},
    FaultInfo{Fault::cache_hint_invalid, "cache-hint-invalid",
              "(2026-07-28) list results carry ttlMs -1 and cacheScope \"everyone\"", false},
    FaultInfo{Fault::discover_without_server_info, "discover-without-server-info",
              "(2026-07-28) the server/discover result names no serverInfo in its _meta", false},
    FaultInfo{Fault::input_state_carried, "input-state-carried",
              "(2026-07-28) the confirm tool remembers an earlier call's answered round and "
              "completes a later call without asking again",
              false},
    FaultInfo{Fault::request_state_ignored, "request-state-ignored",
              "(2026-07-28) the confirm tool's retry completes with a missing or foreign requestState",
              false},
    FaultInfo{Fault::input_without_capability, "input-without-capability",
              "(2026-07-28) the confirm tool asks for elicitation although the request declared "
              "no elicitation capability (instead of -32021)",
              false},
    FaultInfo{Fault::prompt_round_refused, "prompt-round-refused",
              "(2026-07-28) the confirm_prompt prompt asks for input but refuses its retry (-32602)", false},
    FaultInfo{Fault::resource_round_refused, "resource-round-refused",
              "(2026-07-28) the test://confirm/gated resource asks for input but refuses its retry (-32602)",
              false},
    FaultInfo{Fault::listen_untagged, "listen-untagged",
              "(2026-07-28) notifications on a subscriptions/listen stream carry no subscriptionId",
              false},
    FaultInfo{Fault::listen_wrong_tag, "listen-wrong-tag",
              "(2026-07-28) notifications on a listen stream are tagged with the id of the request "
              "that caused them instead of the listen request's",
              false},
    FaultInfo{Fault::listen_no_ack, "listen-no-ack",
              "(2026-07-28) subscriptions/listen gets no notifications/subscriptions/acknowledged",
              false},
    FaultInfo{Fault::listen_unrequested_kind, "listen-unrequested-kind",
              "(2026-07-28) tools/list_changed goes to every listen stream, also those that did not "
              "ask for toolsListChanged",
              false},
    FaultInfo{Fault::list_varies_per_request, "list-varies-per-request",
              "(2026-07-28) tools/list gives its tools in reverse order on every second request", false},
    FaultInfo{Fault::task_without_declaration, "task-without-declaration", "(2026-07-28) slow_report answers with a task handle also when the request did not declare the tasks extension", false},
    FaultInfo{Fault::no_required_capability_error, "no-required-capability-error", "(2026-07-28) -32021 for slow_report (and tasks/*) without the extension carries no data.requiredCapabilities", false},
    FaultInfo{Fault::task_result_type_on_get, "task-result-type-on-get", "(2026-07-28) tasks/get results carry resultType task instead of complete", false},
    FaultInfo{Fault::unknown_task_not_32602, "unknown-task-not-32602", "(2026-07-28) tasks/get of an unknown taskId answers a made-up working task instead of -32602", false},
    FaultInfo{Fault::cancel_not_complete, "cancel-not-complete", "(2026-07-28) tasks/cancel of a finished task is refused with -32602 instead of acknowledged", false},
    FaultInfo{Fault::completed_result_differs, "completed-result-differs", "(2026-07-28) a completed task spreads its result over the task instead of carrying it in result", false},
    FaultInfo{Fault::update_unknown_key_refused, "update-unknown-key-refused", "(2026-07-28) tasks/update naming an input key the task never asked for is refused with -32602 instead of ignored", false},
    FaultInfo{Fault::tasks_served_undeclared, "tasks-served-undeclared", "(2026-07-28) tasks/get and tasks/cancel are served also when the request did not declare the extension", false},
    FaultInfo{Fault::input_key_reused, "input-key-reused", "(2026-07-28) the interview task asks its second question under the key the first one was answered under", false},
    FaultInfo{Fault::update_ack_not_complete, "update-ack-not-complete", "(2026-07-28) tasks/update answering an outstanding input request is acknowledged with the task (resultType task) instead of an empty complete result", false},
    FaultInfo{Fault::tool_error_as_failed, "tool-error-as-failed", "(2026-07-28) the fail tool's task ends failed with a JSON-RPC error instead of completed with its isError result", false},
    FaultInfo{Fault::failed_without_error, "failed-without-error", "(2026-07-28) the broken_job task ends failed without the error member", false},
    FaultInfo{Fault::sequential_task_ids, "sequential-task-ids", "(2026-07-28) task ids are a counter (task-1, task-2, ...)", false},
    FaultInfo{Fault::task_before_input, "task-before-input", "(2026-07-28) confirm with the tasks extension answers a task handle at once and asks its confirmation inside the task instead of resolving the input round first", false},
    FaultInfo{Fault::progress_on_task_stream, "progress-on-task-stream", "(2026-07-28) a listen stream following a task gets a notifications/message with each notifications/tasks", false},
    FaultInfo{Fault::task_listen_undeclared, "task-listen-undeclared", "(2026-07-28) subscriptions/listen with notifications.taskIds is served without the tasks extension on the request instead of -32021", false},
    FaultInfo{Fault::crash_on_deep_nesting, "crash-on-deep-nesting",
              "aborts (SIGABRT) on a request whose params nest deeper than 32 levels", false},
    FaultInfo{Fault::hang_on_long_echo, "hang-on-long-echo",
              "tools/call echo with a text over 1000 characters stops the server reading input", false},
    FaultInfo{Fault::non_json_on_control_char, "non-json-on-control-char",
              "a method name with a control character gets a plain-text line instead of -32601", false},
    FaultInfo{Fault::list_changed_undeclared, "list-changed-undeclared",
              "declares tools without listChanged and still sends notifications/tools/list_changed "
              "after notifications/initialized",
              false},
    FaultInfo{Fault::reused_request_id, "reused-request-id",
              "after notifications/initialized sends two ping requests with the same id, the second "
              "after the first was answered",
              false},
    FaultInfo{Fault::ping_params_bad_result, "ping-params-bad-result",
              "ping with a non-empty params object answers the string \"pong\" as result", false},
    FaultInfo{Fault::unknown_tool_iserror, "unknown-tool-iserror",
              "an unknown tool gives an isError result instead of JSON-RPC error -32602", true},
    FaultInfo{Fault::invalid_args_protocol_error, "invalid-args-protocol-error",
              "in 2025-11-25 invalid tool arguments give -32602 instead of an isError result",
              true},
};

}  // namespace

std::span<const FaultInfo> all_faults() { return kFaults; }

std::optional<Fault> fault_by_name(std::string_view name) {
  for (const auto& f : kFaults) {
    if (f.name == name) return f.fault;
  }
  return std::nullopt;
}

std::string_view fault_name(Fault f) {
  for (const auto& info : kFaults) {
    if (info.fault == f) return info.name;
  }
  return "none";
}

}  // namespace testserver
