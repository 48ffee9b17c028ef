#include "harness/scenario/mrtr_retry.hpp"

#include "harness/util/json_text.hpp"

#include <algorithm>

namespace mcpspec::scenario {

using nlohmann::json;

namespace {

const json& params_of(const json& request) {
  static const json empty = json::object();
  auto p = request.find("params");
  return p != request.end() && p->is_object() ? *p : empty;
}

// The params that must repeat unchanged: all but the round's own members and _meta (whose
// progress token, for one, may differ per request).
json repeated_params(const json& request) {
  json p = params_of(request);
  for (const char* k : {"inputResponses", "requestState", "_meta"}) p.erase(k);
  return p;
}

// Whether the retry's params `p` carry the requestState another request's round (`other`) was
// given, one its own round (`own`) did not give too.
bool has_foreign_state(const json& own, const json& other, const json& p) {
  return other.contains("requestState") && p.contains("requestState") && p["requestState"] == other["requestState"] &&
         !(own.contains("requestState") && own["requestState"] == other["requestState"]);
}

// The requestState and input keys of other requests' rounds that leaked into this retry's params.
std::vector<RetryProblem> leaks_from(const json& own, const json& p, const std::vector<json>& other_rounds) {
  std::vector<RetryProblem> out;
  const bool own_keys = own.contains("inputRequests") && own["inputRequests"].is_object();
  const bool answers = p.contains("inputResponses") && p["inputResponses"].is_object();
  for (const auto& other : other_rounds) {
    if (has_foreign_state(own, other, p))
      out.push_back({"MRTR-13", "the retry carries the requestState " + compact(other["requestState"]) +
                                    " given to another request in flight"});
    if (!answers || !other.contains("inputRequests") || !other["inputRequests"].is_object()) continue;
    for (const auto& [key, _] : other["inputRequests"].items())
      if (p["inputResponses"].contains(key) && !(own_keys && own["inputRequests"].contains(key)))
        out.push_back({"MRTR-13", "the retry's inputResponses answers " + compact(json(key)) +
                                      ", an input request of another request in flight"});
  }
  return out;
}

}  // namespace

bool is_retry_of(const json& original, const json& candidate) {
  if (candidate.value("method", json()) != original.value("method", json())) return false;
  const json& a = params_of(original);
  const json& b = params_of(candidate);
  for (const char* key : {"name", "uri"})
    if (a.contains(key) && (!b.contains(key) || b[key] != a[key])) return false;
  return true;
}

std::vector<RetryProblem> judge_retry(const json& original, const json& input_required, const json& retry,
                                      const std::vector<json>& other_rounds) {
  std::vector<RetryProblem> out = leaks_from(input_required, params_of(retry), other_rounds);
  const bool state_leaked = std::any_of(other_rounds.begin(), other_rounds.end(), [&](const json& other) {
    return has_foreign_state(input_required, other, params_of(retry));
  });
  if (retry.contains("id") && original.contains("id") && retry["id"] == original["id"])
    out.push_back({"MRTR-12", "the retry reuses the id " + compact(retry["id"]) + " of the original request"});
  const json& p = params_of(retry);
  if (input_required.contains("requestState")) {
    if (!p.contains("requestState"))
      out.push_back({"MRTR-10", "the retry does not echo the requestState it was given"});
    else if (p["requestState"] != input_required["requestState"])
      out.push_back({"MRTR-10", "the retry's requestState " + compact(p["requestState"]) + " is not the one given, " +
                                    compact(input_required["requestState"])});
  } else if (p.contains("requestState") && !state_leaked) {  // a leaked state is reported as MRTR-13
    out.push_back({"MRTR-10", "the retry carries a requestState although none was given"});
  }
  if (input_required.contains("inputRequests") && input_required["inputRequests"].is_object()) {
    const bool has = p.contains("inputResponses") && p["inputResponses"].is_object();
    std::string missing;
    for (const auto& [key, _] : input_required["inputRequests"].items())
      if (!has || !p["inputResponses"].contains(key)) missing += (missing.empty() ? "" : ", ") + compact(json(key));
    if (!missing.empty())
      out.push_back({"MRTR-09", "the retry's inputResponses has no answer for " + missing});
  }
  if (repeated_params(retry) != repeated_params(original))
    out.push_back({"MRTR-11", "the retry does not repeat the original params: " + compact(repeated_params(original)) +
                                  " became " + compact(repeated_params(retry))});
  return out;
}

}  // namespace mcpspec::scenario
