#pragma once
// The id monitors: a request id the target used twice in one session, even after the first was
// answered (ids, BASE-05); a response that answers nothing the harness asked
// (unsolicited_response, BASE-06, BASE-12) or answers it a second time (duplicate_response).
#include "harness/monitor/finding.hpp"
#include "harness/monitor/ledger.hpp"

namespace mcpspec::monitor {

Findings judge_request_id(const Ledger& ledger, const protocol::Classified& c);

// Judges a response from the target; `answered_method` is set to the method of the harness's
// request it answers ("" when none). An id-less error (or one with an id the harness used on a
// malformed frame) may answer a frame the harness made unreadable on purpose: each such frame
// excuses one, and the ledger's count goes down.
Findings judge_response_id(Ledger& ledger, const protocol::Classified& c, std::string& answered_method);

}  // namespace mcpspec::monitor
