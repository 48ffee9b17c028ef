// Network `$ref`s in the schemas a server lists: a client must never fetch them by itself
// (JSD-06). The correct client notes them and drops the tool (the reference stays unresolved,
// JSD-08); the fault fetch-network-ref fetches each one, as a validator that resolves remote
// references by default would.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace testclient {

// Every `$ref` string under the tools' inputSchema and outputSchema that names an http(s) URL.
std::vector<std::string> network_refs(const nlohmann::json& tools);

// GETs `url` (http only, 2 s limit); returns the HTTP status, or -1 when nothing answered.
int fetch_url(const std::string& url);

}  // namespace testclient
