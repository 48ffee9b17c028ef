// The protocol bugs the test server can inject, one per run, so that the harness can be shown
// to notice each of them. Requirement ids and levels live in faults.json (read by the
// end-to-end tests); this file only knows names and what each fault does.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace testserver {

enum class Fault {
  none,
  wrong_id,
  missing_jsonrpc,
  respond_to_notification,
  result_and_error,
  wrong_error_code,
  crash_on_bad_json,
  garbage_stdout,
  hang_on_ping,
  decreasing_progress,
  progress_after_response,
  no_initialize_version_check,
  string_id_as_int,
  null_id_parse_error_missing,
  resource_not_found_wrong_code,
  invalid_cursor_accepted,
  bad_log_level_accepted,
  missing_required_prompt_arg_accepted,
  embedded_newline,
  stdout_flood,
  ignore_stdin_eof,
  tools_without_capability,
  log_without_capability,
  server_info_missing,
  cancel_still_answers,
  blob_not_base64,
  tool_schema_not_object,
  duplicate_response,
  error_code_string,
  log_level_ignored,
  structured_content_mismatch,
  progress_wrong_token,
  batch_rejected,
  completion_over_100,
  tool_name_invalid,
  list_changed_undeclared,
  reused_request_id,
  // Protocol 2026-07-28 (modern requests only; faults.json gives each a "protocol"): modern.cpp,
  // input_rounds.cpp, listen.cpp.
  missing_result_type,
  meta_not_required,
  unsupported_version_wrong_code,
  unsupported_version_no_list,
  removed_method_answered,
  retired_not_found_code,
  cache_hint_invalid,
  discover_without_server_info,
  input_state_carried,
  request_state_ignored,
  input_without_capability,
  prompt_round_refused,
  resource_round_refused,
  // What an input round asks (input_rounds.cpp, sampling_rounds.cpp) and the published schemas.
  elicitation_url_undeclared,
  elicitation_without_message,
  elicitation_nested_form,
  elicitation_url_with_id,
  elicitation_cancel_refused,
  sampling_tools_undeclared,
  sampling_bad_role,
  sampling_context_undeclared,
  sampling_tool_result_mixed,
  sampling_tool_use_unanswered,
  sampling_tool_result_unmatched,
  roots_undeclared,
  output_schema_invalid,
  input_schema_untyped,
  elicitation_url_not_absolute,
  listen_untagged,
  listen_wrong_tag,
  listen_no_ack,
  listen_unrequested_kind,
  list_varies_per_request,
  // The tasks extension at 2026-07-28 (tasks.cpp).
  task_without_declaration,
  no_required_capability_error,
  task_result_type_on_get,
  unknown_task_not_32602,
  cancel_not_complete,
  completed_result_differs,
  tasks_served_undeclared,
  update_unknown_key_refused,
  input_key_reused,
  update_ack_not_complete,
  tool_error_as_failed,
  failed_without_error,
  sequential_task_ids,
  task_before_input,
  progress_on_task_stream,
  task_listen_undeclared,
  // Found only by the live fuzzer (`mcpspec fuzz`): the generic suite never sends such input.
  // faults.json lists them under "fuzz_only".
  crash_on_deep_nesting,
  hang_on_long_echo,
  non_json_on_control_char,
  ping_params_bad_result,
  // Ambiguous: the specification can be read to allow these, so they are kept out of the
  // "must be caught" list in faults.json.
  unknown_tool_iserror,
  invalid_args_protocol_error,
};

struct FaultInfo {
  Fault fault;
  std::string_view name;         // the --fault value
  std::string_view description;  // one line for --list-faults
  bool ambiguous;                // true: a harness may legitimately accept it
};

std::span<const FaultInfo> all_faults();
std::optional<Fault> fault_by_name(std::string_view name);
std::string_view fault_name(Fault f);

}  // namespace testserver
