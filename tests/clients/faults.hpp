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
};

Fault parse_fault(const std::string& name);  // throws std::invalid_argument for an unknown name
std::vector<std::string> fault_names();

}  // namespace testclient
