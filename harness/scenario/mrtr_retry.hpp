#pragma once
// Judging a client's retry of a multi-round-trip request (MRTR, 2026-07-28): the harness answered
// the client's tools/call, prompts/get or resources/read with an input_required result; the client
// must send the same request again as a new request (new id, MRTR-12), with the same params plus
// inputResponses holding an answer under every key of inputRequests (MRTR-09, MRTR-11), and with
// requestState exactly as given, or none when none was given (MRTR-10). A client with several
// requests in flight must keep each round to its own request: a retry that carries the
// requestState or an inputResponses key of another request's round breaks MRTR-13.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace mcpspec::scenario {

struct RetryProblem {
  std::string requirement;
  std::string text;
};

// Whether `candidate` (a request from the client) is a retry of `original`: the same method and
// the same target (params.name for tools/call and prompts/get, params.uri for resources/read).
bool is_retry_of(const nlohmann::json& original, const nlohmann::json& candidate);

// What is wrong with `retry`, given the `original` request and the `input_required` result the
// harness answered it with; empty when nothing is. `other_rounds` holds the input_required results
// the harness gave the client's other requests in this scenario: their requestState or input keys
// in this retry are a leak between requests (MRTR-13).
std::vector<RetryProblem> judge_retry(const nlohmann::json& original, const nlohmann::json& input_required,
                                      const nlohmann::json& retry,
                                      const std::vector<nlohmann::json>& other_rounds = {});

}  // namespace mcpspec::scenario
