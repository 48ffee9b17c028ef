// Protocol 2026-07-28 (the modern, stateless era): a request whose params._meta carries the
// io.modelcontextprotocol/ fields is served on its own, with no initialize before it: its _meta is
// checked, the version it names is accepted or refused with -32022, and every result gets a
// resultType (and caching hints where the revision asks for them). An initialize request keeps
// selecting the legacy revisions (session.cpp), so this server is dual-era; --modern-only makes it
// refuse initialize and serve only modern requests.
#pragma once

#include <string>
#include <string_view>

#include "outcome.hpp"

namespace testserver {

class Session;
struct Request;

inline constexpr std::string_view kModernVersion = "2026-07-28";

// True when the request speaks the modern era: params._meta carries the modern version or client
// capabilities field (a request with only one of them is still modern, and gets -32602).
bool is_modern_request(const json& params);

// Serves one modern request: checks _meta and the version, then routes the method.
Outcome route_modern(Session& s, const std::string& method, const Request& req);

// What every modern result carries besides its own members: resultType, serverInfo in _meta, and
// ttlMs/cacheScope on the cacheable results (discover, the lists, resources/read).
void finish_modern_result(Session& s, const std::string& method, json& result);

// The error an initialize request gets from a modern-only server: it names the versions served.
Outcome refuse_initialize_modern_only();

}  // namespace testserver
