// Cross-check: chant's wire messages validated against the official MCP JSON Schemas, which are
// read at test time from the shared reference folder (never copied into the project). Skipped
// with a warning when that folder is absent.
#include "process_runner.hpp"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <catch2/catch.hpp>

using namespace chant_test;

namespace {

fs::path official_schema(const std::string& version) {
  return fs::path(CHANT_MCP_SCHEMA_DIR) / version / "schema.json";
}

// Problems found validating `value` against the named definition (empty: valid).
std::vector<std::string> check(const std::string& version, const std::string& definition,
                               const Json& value) {
  nlohmann::json doc = nlohmann::json::parse(slurp(official_schema(version)));
  doc.erase("$schema");
  doc["$ref"] = "#/definitions/" + definition;
  valijson::Schema schema;
  valijson::SchemaParser parser;
  valijson::adapters::NlohmannJsonAdapter schema_adapter(doc);
  parser.populateSchema(schema_adapter, schema);
  nlohmann::json plain = nlohmann::json::parse(value.dump());
  valijson::adapters::NlohmannJsonAdapter target(plain);
  valijson::Validator validator;
  valijson::ValidationResults results;
  std::vector<std::string> out;
  if (validator.validate(schema, target, &results)) return out;
  valijson::ValidationResults::Error e;
  while (results.popError(e)) {
    std::string where;
    for (const auto& part : e.context) where += part;
    out.push_back(where + ": " + e.description);
  }
  return out;
}

std::string call(int id, const std::string& tool, const Json& args) {
  return mcpref::to_line(Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"},
                              {"params", Json{{"name", tool}, {"arguments", args}}}}) + "\n";
}

}  // namespace

TEST_CASE("chant's messages satisfy the official 2024-11-05 schema", "[chant][schema]") {
  if (!fs::exists(official_schema("2024-11-05"))) {
    WARN("official MCP schemas not found under " CHANT_MCP_SCHEMA_DIR "; cross-check skipped");
    return;
  }
  Project p;
  p.add_spec("s-1", "One", "in_progress", "\n- [ ] open\n");
  write_text(p.paths().logs / "s-1.log", "hello\n");
  std::string input =
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})" "\n"
      R"({"jsonrpc":"2.0","method":"notifications/initialized"})" "\n"
      R"({"jsonrpc":"2.0","id":2,"method":"ping"})" "\n"
      R"({"jsonrpc":"2.0","id":3,"method":"tools/list"})" "\n" +
      call(4, "chant_spec_list", Json::object()) + call(5, "chant_spec_get", Json{{"id", "s-1"}}) +
      call(6, "chant_ready", Json::object()) + call(7, "chant_status", Json{{"include_activity", true}}) +
      call(8, "chant_log", Json{{"id", "s-1"}}) + call(9, "chant_search", Json{{"query", "one"}}) +
      call(10, "chant_diagnose", Json{{"id", "s-1"}}) + call(11, "chant_verify", Json{{"id", "s-1"}}) +
      call(12, "chant_spec_update", Json{{"id", "s-1"}, {"output", "x"}}) +
      call(13, "chant_add", Json{{"description", "new"}}) + call(14, "chant_finalize", Json{{"id", "s-1"}}) +
      call(15, "chant_resume", Json{{"id", "s-1"}}) + call(16, "chant_cancel", Json{{"id", "s-1"}}) +
      call(17, "chant_archive", Json{{"id", "s-1"}}) + call(18, "chant_nope", Json::object()) +
      R"({"jsonrpc":"2.0","id":19,"method":"no/such/method"})" "\n";
  auto r = run_chant({"mcp"}, p.root(), input);
  auto replies = json_lines(r.out);
  REQUIRE(replies.size() == 19);
  for (const auto& reply : replies) {
    INFO(reply.dump());
    bool is_error_reply = reply.contains("error");
    CHECK(check("2024-11-05", is_error_reply ? "JSONRPCError" : "JSONRPCResponse", reply).empty());
    CHECK(check("2024-11-05", "JSONRPCMessage", reply).empty());
    int id = reply["id"];
    if (id == 1) CHECK(check("2024-11-05", "InitializeResult", reply["result"]).empty());
    if (id == 2) CHECK(check("2024-11-05", "EmptyResult", reply["result"]).empty());
    if (id == 3) {
      CHECK(check("2024-11-05", "ListToolsResult", reply["result"]).empty());
      // Tool annotations only exist in the schema from 2025-03-26 on: check them there.
      CHECK(check("2025-03-26", "ListToolsResult", reply["result"]).empty());
      for (const auto& tool : reply["result"]["tools"]) {
        CHECK(check("2025-03-26", "ToolAnnotations", tool["annotations"]).empty());
      }
    }
    if (id >= 4 && id <= 18) CHECK(check("2024-11-05", "CallToolResult", reply["result"]).empty());
  }
  // The chant document answers a parse error with id null, which JSON-RPC allows but the
  // 2024-11-05 schema (id: string | integer) does not: the document wins; we only record it.
  auto bad = json_lines(run_chant({"mcp"}, p.root(), "not json\n").out);
  REQUIRE(bad.size() == 1);
  CHECK(bad[0]["id"].is_null());
  CHECK_FALSE(check("2024-11-05", "JSONRPCError", bad[0]).empty());
}
