// The protocol bugs --fault can inject (one at a time); faults.json lists them with the
// requirement the harness must name when it sees each one.
#pragma once

#include <string>
#include <vector>

namespace testclient {

enum class Fault {
  none,
  no_initialized,                // never sends notifications/initialized
  request_before_init_response,  // sends tools/list before the initialize response arrives
  null_id,                       // requests after initialize carry "id": null
  reused_id,                     // every request after initialize reuses the id of the first one
  no_ping_answer,                // ignores the server's ping
  cancel_initialize,             // sends notifications/cancelled for its initialize request
  answer_undeclared_sampling,    // answers sampling/createMessage with a result without declaring sampling
  crash_on_error,                // aborts when a request it sent gets an error response
  reused_progress_token,         // every progress token is the same value
  kill_without_closing_stdin,    // stops the server with SIGTERM instead of closing its stdin
  accept_unsupported_version,    // carries on when the server answers a version it does not know
  roots_list_changed_undeclared, // sends notifications/roots/list_changed without declaring roots.listChanged
  // 2026-07-28 (modern_driver.cpp)
  modern_no_meta_version,            // requests after the probe lack _meta's protocolVersion
  modern_no_meta_capabilities,       // requests after the probe lack _meta's clientCapabilities
  mrtr_old_id,                       // an MRTR retry reuses the id of the original request
  mrtr_state_not_echoed,             // an MRTR retry leaves out the requestState it was given
  mrtr_arguments_changed,            // an MRTR retry changes the tool arguments
  mrtr_missing_response,             // an MRTR retry answers none of the input requests
  modern_sends_response,             // answers input requests as JSON-RPC responses too
  modern_ping,                       // sends ping after the probe
  modern_initialize_after_discover,  // sends initialize after a discover result
  untagged_subscription,             // acts on list_changed notifications of subscriptions not its own
  fallback_on_modern_error,          // falls back to initialize after -32022
  fallback_only_on_method_not_found, // falls back to initialize only after -32601
  modern_bad_meta_prefix,            // a _meta key whose prefix label starts with a digit
  modern_bad_meta_name,              // a _meta key whose name starts with "-"
  modern_bad_traceparent,            // a _meta traceparent that is not W3C trace context
  stops_on_empty_cursor,             // takes nextCursor "" as the last page
  crash_on_late_response,            // aborts when a response arrives for a request it cancelled
  result_type_absent_not_complete,   // sends a request again when its result has no resultType
  cache_key_method_only,             // caches list results by method alone, ignoring the params
  cache_zero_ttl_fresh,              // takes a result with ttlMs 0 (or none) as fresh for a minute
  cache_never_expires,               // a result with a positive ttlMs never goes stale
  modern_sampling_undeclared,        // answers sampling input requests without sampling in _meta's capabilities
  modern_roots_list_changed,         // declares roots with listChanged, which 2026-07-28 removed
  roots_not_file_uri,                // answers roots/list with an https:// root
  accepts_unknown_result_type,       // takes a result with an unknown resultType as a success
  modern_elicitation_undeclared,     // answers elicitation input requests without elicitation in _meta's capabilities
  elicitation_no_mode_not_form,      // declines an elicitation request that has no mode instead of reading it as a form
  // the tasks extension, io.modelcontextprotocol/tasks (tasks_client.cpp)
  task_result_ignored,               // takes a task handle for tools/call as the call's final result, never polls
  task_for_list_followed,            // polls a task handle that answered tools/list, which cannot become a task
  task_polls_too_fast,               // polls tasks/get without waiting pollIntervalMs
  task_polls_after_terminal,         // sends one more tasks/get after the task reached a terminal status
  task_input_ignored,                // never answers an input_required task with tasks/update, only polls
  task_update_stale_keys,            // repeats earlier, already answered keys in a later tasks/update
  task_input_answered_twice,         // answers a key again when a later poll still lists it
  task_cancel_by_notification,       // cancels a task with notifications/cancelled for the call instead of tasks/cancel
  mrtr_shared_input_slot,            // keeps one inputResponses/requestState for every call in flight
  no_relisten_after_restart,         // restarts its ended server but does not open its subscription again
  fetch_network_ref,                 // fetches every network $ref in the listed tools' schemas
  permissive_unresolved_ref,         // keeps (and calls) a tool whose schema has an unresolved network $ref
  unbounded_schema_walk,             // walks a listed tool's schemas with no bound on the work
  url_accept_awaits_completion,      // after accepting a URL elicitation waits for a completion notice instead of retrying
};

Fault parse_fault(const std::string& name);  // throws std::invalid_argument for an unknown name
std::vector<std::string> fault_names();

}  // namespace testclient
