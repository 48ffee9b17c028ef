// with_modern_meta: what the harness adds to each request it sends at a modern version.
#include "harness/protocol/modern_stamp.hpp"

#include <catch2/catch.hpp>

using mcpspec::protocol::with_modern_meta;
using nlohmann::json;

namespace {
const json kInfo = {{"name", "mcpspec"}, {"version", "1"}};
json stamp(const json& m) { return with_modern_meta(m, "2026-07-28", json::object(), kInfo); }
}  // namespace

TEST_CASE("modern stamp: a request gets version, capabilities and identity in params._meta", "[protocol][modern]") {
  json out = stamp({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}});
  const json& meta = out["params"]["_meta"];
  CHECK(meta["io.modelcontextprotocol/protocolVersion"] == "2026-07-28");
  CHECK(meta["io.modelcontextprotocol/clientCapabilities"] == json::object());
  CHECK(meta["io.modelcontextprotocol/clientInfo"] == kInfo);
}

TEST_CASE("modern stamp: what the scenario wrote wins, other _meta keys stay", "[protocol][modern]") {
  json in = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"},
             {"params", {{"name", "x"}, {"_meta", {{"progressToken", "p"},
                                                  {"io.modelcontextprotocol/protocolVersion", "1900-01-01"},
                                                  {"io.modelcontextprotocol/clientCapabilities", {{"elicitation", json::object()}}}}}}}};
  json out = stamp(in);
  const json& meta = out["params"]["_meta"];
  CHECK(meta["progressToken"] == "p");
  CHECK(meta["io.modelcontextprotocol/protocolVersion"] == "1900-01-01");
  CHECK(meta["io.modelcontextprotocol/clientCapabilities"].contains("elicitation"));
  CHECK(meta.contains("io.modelcontextprotocol/clientInfo"));
}

TEST_CASE("modern stamp: notifications, responses and malformed params are left alone", "[protocol][modern]") {
  const json note = {{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 1}}}};
  CHECK(stamp(note) == note);
  const json response = {{"jsonrpc", "2.0"}, {"id", 1}, {"result", json::object()}};
  CHECK(stamp(response) == response);
  const json array_params = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}, {"params", json::array()}};
  CHECK(stamp(array_params) == array_params);
  const json bad_meta = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}, {"params", {{"_meta", 5}}}};
  CHECK(stamp(bad_meta) == bad_meta);
}
