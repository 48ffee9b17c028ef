#include "harness/protocol/era.hpp"

#include <catch2/catch.hpp>

using namespace mcpspec::protocol;

TEST_CASE("era_of: initialize-era versions are legacy, 2026-07-28 and later are modern", "[protocol][era]") {
  CHECK(era_of("2024-11-05") == Era::Legacy);
  CHECK(era_of("2025-11-25") == Era::Legacy);
  CHECK(era_of("2026-07-27") == Era::Legacy);
  CHECK(era_of("2026-07-28") == Era::Modern);
  CHECK(era_of("2027-01-01") == Era::Modern);
  CHECK(is_modern("2026-07-28"));
  CHECK_FALSE(is_modern("2025-06-18"));
}

TEST_CASE("era_of: a string that is not a date is legacy", "[protocol][era]") {
  CHECK(era_of("") == Era::Legacy);
  CHECK(era_of("draft") == Era::Legacy);
  CHECK(era_of("2026-07-28x") == Era::Legacy);
  CHECK(era_of("9999/99/99") == Era::Legacy);
}

TEST_CASE("modern_request_meta carries version and capabilities, and identity when given", "[protocol][era]") {
  auto m = modern_request_meta("2026-07-28", nlohmann::json::object(), {{"name", "mcpspec"}, {"version", "1"}});
  CHECK(m[meta_key::kProtocolVersion] == "2026-07-28");
  CHECK(m[meta_key::kClientCapabilities] == nlohmann::json::object());
  CHECK(m[meta_key::kClientInfo]["name"] == "mcpspec");
  auto bare = modern_request_meta("2026-07-28", nullptr, nullptr);
  CHECK(bare[meta_key::kClientCapabilities] == nlohmann::json::object());
  CHECK_FALSE(bare.contains(meta_key::kClientInfo));
}

TEST_CASE("answers_the_request: JSON-RPC answers to a request, not HTTP-level explanations", "[protocol][era]") {
  using modern_error::answers_the_request;
  for (long long code : {-32600, -32601, -32602, -32603, -32020, -32021, -32022}) CHECK(answers_the_request(code));
  // -32000 "Bad Request" / -32001 "Session not found" explain an HTTP refusal; -32700 read nothing.
  for (long long code : {-32700, -32000, -32001, -32019, -32023, -32604, 0, 1}) CHECK_FALSE(answers_the_request(code));
}
