#include "faults.hpp"

#include <stdexcept>
#include <utility>

namespace testclient {

namespace {
const std::pair<const char*, Fault> kFaults[] = {
    {"no-initialized", Fault::no_initialized},
    {"request-before-init-response", Fault::request_before_init_response},
    {"null-id", Fault::null_id},
    {"reused-id", Fault::reused_id},
    {"no-ping-answer", Fault::no_ping_answer},
    {"cancel-initialize", Fault::cancel_initialize},
    {"answer-undeclared-sampling", Fault::answer_undeclared_sampling},
    {"crash-on-error", Fault::crash_on_error},
    {"reused-progress-token", Fault::reused_progress_token},
    {"kill-without-closing-stdin", Fault::kill_without_closing_stdin},
    {"accept-unsupported-version", Fault::accept_unsupported_version},
    {"roots-list-changed-undeclared", Fault::roots_list_changed_undeclared},
    {"modern-no-meta-version", Fault::modern_no_meta_version},
    {"modern-no-meta-capabilities", Fault::modern_no_meta_capabilities},
    {"mrtr-old-id", Fault::mrtr_old_id},
    {"mrtr-state-not-echoed", Fault::mrtr_state_not_echoed},
    {"mrtr-arguments-changed", Fault::mrtr_arguments_changed},
    {"mrtr-missing-response", Fault::mrtr_missing_response},
    {"modern-sends-response", Fault::modern_sends_response},
    {"modern-ping", Fault::modern_ping},
    {"modern-initialize-after-discover", Fault::modern_initialize_after_discover},
    {"untagged-subscription", Fault::untagged_subscription},
    {"fallback-on-modern-error", Fault::fallback_on_modern_error},
    {"fallback-only-on-method-not-found", Fault::fallback_only_on_method_not_found},
    {"modern-bad-meta-prefix", Fault::modern_bad_meta_prefix},
    {"modern-bad-meta-name", Fault::modern_bad_meta_name},
    {"modern-bad-traceparent", Fault::modern_bad_traceparent},
    {"stops-on-empty-cursor", Fault::stops_on_empty_cursor},
    {"crash-on-late-response", Fault::crash_on_late_response},
    {"result-type-absent-not-complete", Fault::result_type_absent_not_complete},
    {"cache-key-method-only", Fault::cache_key_method_only},
    {"cache-zero-ttl-fresh", Fault::cache_zero_ttl_fresh},
    {"cache-never-expires", Fault::cache_never_expires},
    {"modern-sampling-undeclared", Fault::modern_sampling_undeclared},
    {"modern-roots-list-changed", Fault::modern_roots_list_changed},
    {"roots-not-file-uri", Fault::roots_not_file_uri},
    {"accepts-unknown-result-type", Fault::accepts_unknown_result_type},
    {"modern-elicitation-undeclared", Fault::modern_elicitation_undeclared},
    {"elicitation-no-mode-not-form", Fault::elicitation_no_mode_not_form},
    {"task-result-ignored", Fault::task_result_ignored},
    {"task-for-list-followed", Fault::task_for_list_followed},
    {"task-polls-too-fast", Fault::task_polls_too_fast},
    {"task-polls-after-terminal", Fault::task_polls_after_terminal},
    {"task-input-ignored", Fault::task_input_ignored},
    {"task-update-stale-keys", Fault::task_update_stale_keys},
    {"task-input-answered-twice", Fault::task_input_answered_twice},
    {"task-cancel-by-notification", Fault::task_cancel_by_notification},
    {"mrtr-shared-input-slot", Fault::mrtr_shared_input_slot},
    {"no-relisten-after-restart", Fault::no_relisten_after_restart},
    {"fetch-network-ref", Fault::fetch_network_ref},
    {"permissive-unresolved-ref", Fault::permissive_unresolved_ref},
    {"unbounded-schema-walk", Fault::unbounded_schema_walk},
    {"url-accept-awaits-completion", Fault::url_accept_awaits_completion},
};
}  // namespace

Fault parse_fault(const std::string& name) {
  for (const auto& [n, f] : kFaults)
    if (name == n) return f;
  throw std::invalid_argument("unknown fault \"" + name + "\" (--list-faults shows them)");
}

std::vector<std::string> fault_names() {
  std::vector<std::string> out;
  for (const auto& [n, f] : kFaults) out.push_back(n);
  return out;
}

}  // namespace testclient
