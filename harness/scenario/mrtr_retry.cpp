#include "harness/scenario/mrtr_retry.hpp"

#include "harness/util/json_text.hpp"

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

}  // namespace

bool is_retry_of(const json& original, const json& candidate) {
  if (candidate.value("method", json()) != original.value("method", json())) return false;
  const json& a = params_of(original);
  const json& b = params_of(candidate);
  for (const char* key : {"name", "uri"})
    if (a.contains(key) && (!b.contains(key) || b[key] != a[key])) return false;
  return true;
}

std::vector<RetryProblem> judge_retry(const json& original, const json& input_required, const json& retry) {
  std::vector<RetryProblem> out;
  if (retry.contains("id") && original.contains("id") && retry["id"] == original["id"])
    out.push_back({"MRTR-12", "the retry reuses the id " + compact(retry["id"]) + " of the original request"});
  const json& p = params_of(retry);
  if (input_required.contains("requestState")) {
    if (!p.contains("requestState"))
      out.push_back({"MRTR-10", "the retry does not echo the requestState it was given"});
    else if (p["requestState"] != input_required["requestState"])
      out.push_back({"MRTR-10", "the retry's requestState " + compact(p["requestState"]) + " is not the one given, " +
                                    compact(input_required["requestState"])});
  } else if (p.contains("requestState")) {
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
