// Cross-check of the MCP compatibility mode against the official MCP schemas (read at test
// time from the shared reference folder, never copied into the project). Skipped with a
// warning when the folder is not there.
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "capture_sink.hpp"
#include "server.hpp"

using namespace clariad;
using clariad::test::CaptureSink;
using clariad::test::request;

namespace {

std::filesystem::path schema_dir() {
  if (const char* env = std::getenv("CLARIAD_MCP_SCHEMA_DIR")) return env;
  return CLARIAD_MCP_SCHEMA_DIR;
}

// Validates `value` against definition `name` of the official schema of `version`.
// Returns the error descriptions (empty when valid).
std::vector<std::string> violations(const Json& root, const std::string& name, const Json& value) {
  Json doc = root;
  const std::string defs = doc.contains("$defs") ? "$defs" : "definitions";
  REQUIRE(doc.at(defs).contains(name));
  doc.erase("$schema");  // 2020-12 is declared for 2025-11-25; the definitions used here are draft-07 compatible
  doc["$ref"] = "#/" + defs + "/" + name;
  valijson::Schema schema;
  valijson::SchemaParser parser;
  valijson::adapters::NlohmannJsonAdapter schema_adapter(doc);
  parser.populateSchema(schema_adapter, schema);
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter target(value);
  std::vector<std::string> out;
  if (validator.validate(schema, target, &results)) return out;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) out.push_back(error.description);
  return out;
}

Json last_message(CaptureSink& sink, Server& server, const std::string& line) {
  sink.clear();
  server.handle_line(line);
  server.finish_operations();
  REQUIRE(sink.size() >= 1);
  return sink.messages().back();
}

}  // namespace

TEST_CASE("MCP compatibility answers validate against the official schemas", "[mcp][schema]") {
  for (const std::string version : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
    const std::filesystem::path file = schema_dir() / version / "schema.json";
    if (!std::filesystem::exists(file)) {
      WARN("official schema not found, cross-check skipped: " << file.string());
      continue;
    }
    INFO("protocol " << version);
    std::ifstream in(file);
    const Json root = Json::parse(in);

    CaptureSink sink;
    Server server(sink, ServerConfig{});
    const Json init = last_message(sink, server,
                                   request(1, "initialize",
                                           {{"protocolVersion", version},
                                            {"capabilities", Json::object()},
                                            {"clientInfo", {{"name", "t"}, {"version", "1"}}}}));
    CHECK(violations(root, "JSONRPCResponse", init).empty());
    CHECK(violations(root, "InitializeResult", init.at("result")).empty());

    const Json list = last_message(sink, server, request(2, "tools/list"));
    CHECK(violations(root, "ListToolsResult", list.at("result")).empty());

    const Json call = last_message(
        sink, server,
        request(3, "tools/call", {{"name", "vision_agent"}, {"arguments", {{"project_description", "A notes app"}}}}));
    CHECK(violations(root, "CallToolResult", call.at("result")).empty());

    const Json tool_error = last_message(sink, server, request(4, "tools/call", {{"name", "vision_agent"}}));
    CHECK(tool_error.at("result").at("isError") == true);
    CHECK(violations(root, "CallToolResult", tool_error.at("result")).empty());

    const Json protocol_error = last_message(sink, server, request(5, "tools/call", {{"name", "nope"}}));
    const std::string error_def = root.contains("$defs") ? "JSONRPCErrorResponse" : "JSONRPCError";
    CHECK(violations(root, error_def, protocol_error).empty());

    sink.clear();
    server.handle_line(request(6, "tools/call",
                               {{"name", "long_running_operation"},
                                {"arguments", {{"operation_name", "op"}, {"duration_seconds", 0}}},
                                {"_meta", {{"progressToken", 99}}}}));
    server.finish_operations();
    const std::vector<Json> stream = sink.messages();
    REQUIRE(stream.size() == 6);
    for (std::size_t i = 0; i < 5; ++i) CHECK(violations(root, "ProgressNotification", stream[i]).empty());
    CHECK(violations(root, "CallToolResult", stream[5].at("result")).empty());

    // A negative control: the checker does reject a malformed result.
    CHECK_FALSE(violations(root, "CallToolResult", Json{{"content", "not an array"}}).empty());
  }
}
