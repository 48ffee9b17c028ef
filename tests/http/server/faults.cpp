#include "faults.hpp"

namespace httpfront {

const std::vector<Fault>& faults() {
  static const std::vector<Fault> all = {
      {"ignore-origin", "HTTP-03", "requests with a foreign Origin are served instead of getting 403"},
      {"notification-200", "HTTP-13", "a POSTed notification gets 200 with a body instead of 202 without one"},
      {"session-optional", "SESS-06", "requests without Mcp-Session-Id are served instead of getting 400"},
      {"unknown-session-accepted", "SESS-07", "an unknown or deleted session id is served instead of getting 404"},
      {"session-id-not-visible-ascii", "SESS-03", "the session id contains a space"},
      {"accept-bad-protocol-header", "HTTP-PV-04", "an invalid MCP-Protocol-Version header is accepted instead of 400"},
      {"batch-accepted", "HTTP-12", "a JSON array body is processed under 2025-06-18 and later"},
      {"get-wrong-status", "HTTP-31", "GET answers 200 with a JSON body instead of an event stream or 405"},
      {"cross-stream-replay", "HTTP-44", "resuming with Last-Event-ID replays the events of every stream"},
      {"duplicate-event-ids", "HTTP-40", "SSE event ids restart at 1 on every stream"},
      {"legacy-no-endpoint", "SSE-04", "(legacy mode) the first SSE event is not the endpoint event"},
      // 2026-07-28: the header rules a server that reads the body must enforce.
      {"modern-method-unchecked", "HDR-04", "a missing or wrong Mcp-Method is served instead of 400/-32020"},
      {"modern-name-unchecked", "HDR-04", "a missing or wrong Mcp-Name is served instead of 400/-32020"},
      {"modern-param-unchecked", "HDR-12", "a missing or wrong Mcp-Param-{Name} is served instead of 400/-32020"},
      {"modern-version-unchecked", "HTTP-PV-02",
       "a missing MCP-Protocol-Version, or one other than _meta's, is served instead of 400/-32020"},
      {"modern-sentinel-not-decoded", "HDR-05",
       "=?base64?...?= header values are compared undecoded, so a correct request is refused"},
      {"modern-mismatch-code", "HDR-04", "a header mismatch gets 400 with -32600 instead of -32020"},
      {"modern-unsupported-version-200", "HTTP-PV-04", "-32022 (unsupported version) travels with HTTP 200, not 400"},
      {"modern-unknown-method-200", "HTTP-PV-05", "-32601 (unknown method) travels with HTTP 200, not 404"},
      {"modern-session-id", "HTTP-BC-04", "modern answers carry a new Mcp-Session-Id"},
      {"modern-refusal-id-null", "BASE-08",
       "a request refused with 400 (-32020, -32022) or 404 (-32601) gets an error whose id is null"},
      {"modern-header-names-case-sensitive", "HDR-03", "header names are matched only in their canonical case"},
      {"wrong-content-type", "HTTP-15", "answers to requests are labelled text/plain instead of JSON or SSE"},
      {"modern-get-served", "HTTP-BC-03", "(--modern-only) GET and DELETE get 400 instead of 405"},
  };
  return all;
}

bool known_fault(const std::string& name) {
  for (const auto& f : faults())
    if (name == f.name) return true;
  return false;
}

}  // namespace httpfront
