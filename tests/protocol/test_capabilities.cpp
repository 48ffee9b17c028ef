// Capability paths in `requires` and `if` (harness/protocol/capabilities.hpp): dotted paths, and
// extension keys that hold dots themselves.
#include "harness/protocol/capabilities.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using mcpspec::protocol::capability_declared;
using nlohmann::json;

TEST_CASE("capability paths: dotted members, false and null as undeclared", "[protocol][capabilities]") {
  const json caps = json::parse(R"({"resources":{"subscribe":true,"listChanged":false},"tools":{},"logging":null})");
  CHECK(capability_declared(caps, "resources.subscribe"));
  CHECK(capability_declared(caps, "tools"));
  CHECK_FALSE(capability_declared(caps, "resources.listChanged"));
  CHECK_FALSE(capability_declared(caps, "logging"));
  CHECK_FALSE(capability_declared(caps, "prompts"));
  CHECK_FALSE(capability_declared(caps, "tools.listChanged"));
}

TEST_CASE("capability paths: an extension key with dots is matched whole", "[protocol][capabilities]") {
  const json caps = json::parse(R"({"extensions":{"io.modelcontextprotocol/tasks":{}}})");
  CHECK(capability_declared(caps, "extensions.io.modelcontextprotocol/tasks"));
  CHECK(capability_declared(caps, "extensions"));
  CHECK_FALSE(capability_declared(caps, "extensions.io.modelcontextprotocol/other"));
  CHECK_FALSE(capability_declared(caps, "extensions.io"));
  const json off = json::parse(R"({"extensions":{"io.modelcontextprotocol/tasks":false}})");
  CHECK_FALSE(capability_declared(off, "extensions.io.modelcontextprotocol/tasks"));
}
