#pragma once
// The pieces of an incoming cpp-httplib request the auth endpoints record: its headers with names
// lower-cased (httplib's own REMOTE_ADDR and the like left out), and OAuth scope strings as sets.
#include <nlohmann/json.hpp>

#include <set>
#include <string>

namespace httplib {
struct Request;
}

namespace mcpspec::auth {

nlohmann::json recorded_headers(const httplib::Request& req);
// "a b  c" -> {a, b, c} (RFC 6749 §3.3: space-delimited, order and repeats irrelevant).
std::set<std::string> scope_set(const std::string& scope);

}  // namespace mcpspec::auth
