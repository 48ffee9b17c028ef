// read_peer_json: the one gate every reader of peer output goes through.
#include "harness/protocol/peer_json.hpp"

#include <catch2/catch.hpp>

#include <string>

using mcpspec::protocol::PeerJson;
using mcpspec::protocol::read_peer_json;

TEST_CASE("peer JSON: a message reads as its value", "[protocol][peer_json]") {
  auto r = read_peer_json(R"({"jsonrpc":"2.0","id":1,"result":{}})");
  REQUIRE(r.status == PeerJson::Status::Ok);
  CHECK(r.value["id"] == 1);
}

TEST_CASE("peer JSON: each way of being unreadable is told apart", "[protocol][peer_json]") {
  CHECK(read_peer_json("hello").status == PeerJson::Status::NotJson);
  CHECK(read_peer_json("").status == PeerJson::Status::NotJson);
  auto huge = read_peer_json(R"({"x":1e999})");
  CHECK(huge.status == PeerJson::Status::NumberOutOfRange);
  CHECK_FALSE(huge.detail.empty());
  auto deep = read_peer_json(std::string(100000, '['));
  CHECK(deep.status == PeerJson::Status::TooDeep);
  CHECK_THAT(deep.detail, Catch::Contains("512"));
  // Brackets inside strings do not count towards the depth.
  CHECK(read_peer_json("[\"" + std::string(1000, '[') + "\"]").status == PeerJson::Status::Ok);
}
