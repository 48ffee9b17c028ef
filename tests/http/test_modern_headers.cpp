// The request headers of a modern (2026-07-28) POST, read off the message: version, method, name,
// x-mcp-header parameters, and the Base64 sentinel for values that are no plain header text.
#include "harness/transport/http/modern_headers.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace mcpspec::transport::http;
using nlohmann::json;

namespace {

std::string header(const Headers& h, const std::string& name) {
  for (const auto& [k, v] : h)
    if (k == name) return v;
  return "<absent>";
}
json modern_meta() {
  return {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"}, {"io.modelcontextprotocol/clientCapabilities", json::object()}};
}
json call(const std::string& name, json args) {
  return {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"},
          {"params", {{"name", name}, {"arguments", std::move(args)}, {"_meta", modern_meta()}}}};
}

}  // namespace

TEST_CASE("modern headers: version, method and name mirror the body", "[http][modern]") {
  auto h = modern_request_headers(call("get_weather", json::object()), {});
  CHECK(header(h, "MCP-Protocol-Version") == "2026-07-28");
  CHECK(header(h, "Mcp-Method") == "tools/call");
  CHECK(header(h, "Mcp-Name") == "get_weather");
  json read = {{"jsonrpc", "2.0"}, {"id", 2}, {"method", "resources/read"},
               {"params", {{"uri", "file:///a b"}, {"_meta", modern_meta()}}}};
  CHECK(header(modern_request_headers(read, {}), "Mcp-Name") == "file:///a b");
  json list = {{"jsonrpc", "2.0"}, {"id", 3}, {"method", "tools/list"}, {"params", {{"_meta", modern_meta()}}}};
  CHECK(header(modern_request_headers(list, {}), "Mcp-Name") == "<absent>");
}

TEST_CASE("modern headers: a legacy message gets none", "[http][modern]") {
  json legacy = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}};
  CHECK(modern_request_headers(legacy, {}).empty());
  json old_meta = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"},
                   {"params", {{"_meta", {{"io.modelcontextprotocol/protocolVersion", "2025-11-25"}}}}}};
  CHECK(modern_request_headers(old_meta, {}).empty());
}

TEST_CASE("modern headers: the Base64 sentinel for values that are not plain header text", "[http][modern]") {
  CHECK(encoded_header_value("us-west1") == "us-west1");
  CHECK(encoded_header_value("Hello, \xe4\xb8\x96\xe7\x95\x8c") == "=?base64?SGVsbG8sIOS4lueVjA==?=");
  CHECK(encoded_header_value(" padded ") == "=?base64?IHBhZGRlZCA=?=");
  CHECK(encoded_header_value("line1\nline2") == "=?base64?bGluZTEKbGluZTI=?=");
  CHECK(encoded_header_value("=?base64?literal?=") == "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
}

TEST_CASE("modern headers: x-mcp-header arguments become Mcp-Param headers", "[http][modern]") {
  json listed = {{"tools", json::array({{{"name", "sql"},
                                         {"inputSchema",
                                          {{"type", "object"},
                                           {"properties",
                                            {{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}},
                                             {"opts", {{"type", "object"},
                                                       {"properties", {{"limit", {{"type", "integer"}, {"x-mcp-header", "Limit"}}},
                                                                       {"dry", {{"type", "boolean"}, {"x-mcp-header", "Dry"}}}}}}},
                                             {"query", {{"type", "string"}}}}}}}}})}};
  ToolParamHeaders tools;
  learn_param_headers(listed, tools);
  auto h = modern_request_headers(call("sql", {{"region", "eu"}, {"opts", {{"limit", 42.0}, {"dry", true}}}, {"query", "x"}}), tools);
  CHECK(header(h, "Mcp-Param-Region") == "eu");
  CHECK(header(h, "Mcp-Param-Limit") == "42");
  CHECK(header(h, "Mcp-Param-Dry") == "true");
  auto absent = modern_request_headers(call("sql", {{"region", nullptr}}), tools);
  CHECK(header(absent, "Mcp-Param-Region") == "<absent>");
  CHECK(header(absent, "Mcp-Param-Limit") == "<absent>");
}

TEST_CASE("modern headers: a message naming no version takes the connection's", "[http][modern]") {
  // A deliberately incomplete request or a notification on a modern connection: every POST still
  // carries the version and method headers (HTTP-PV-01, HDR-01), so the server judges its body.
  json no_params = {{"jsonrpc", "2.0"}, {"id", 4}, {"method", "tools/call"}, {"params", "not an object"}};
  auto h = modern_request_headers(no_params, {}, "2026-07-28");
  CHECK(header(h, "MCP-Protocol-Version") == "2026-07-28");
  CHECK(header(h, "Mcp-Method") == "tools/call");
  CHECK(header(h, "Mcp-Name") == "<absent>");
  json note = {{"jsonrpc", "2.0"}, {"method", "notifications/mcpspec/unknown"}};
  CHECK(header(modern_request_headers(note, {}, "2026-07-28"), "Mcp-Method") == "notifications/mcpspec/unknown");
  CHECK(modern_request_headers(note, {}).empty());  // no modern request went out before: legacy
  // A version no server knows is sent as written once the connection is modern, or when the
  // message carries the modern capabilities field (the -32022 probes).
  json probe = {{"jsonrpc", "2.0"}, {"id", 5}, {"method", "server/discover"},
                {"params", {{"_meta", {{"io.modelcontextprotocol/protocolVersion", "1900-01-01"}}}}}};
  CHECK(header(modern_request_headers(probe, {}, "2026-07-28"), "MCP-Protocol-Version") == "1900-01-01");
  CHECK(modern_request_headers(probe, {}).empty());
  probe["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] = json::object();
  CHECK(header(modern_request_headers(probe, {}), "MCP-Protocol-Version") == "1900-01-01");
}
