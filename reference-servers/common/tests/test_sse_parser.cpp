// The SSE event parser: fields, multi-line data, comments, line endings split across chunks,
// priming events without data, retry, and the size bound.
#include "mcpref/sse_parser.hpp"

#include <catch2/catch.hpp>

#include <vector>

using mcpref::SseEvent;
using mcpref::SseParser;

TEST_CASE("SSE events are cut at blank lines, whatever the chunking", "[sse]") {
  const std::string stream =
      ": keep-alive\r\nid: 7\r\nevent: message\r\ndata: {\"a\":1}\r\n\r\n"
      "data: line one\ndata:line two\n\nretry: 1500\nid: 8\n\n\rdata: cr only\r\r";
  for (std::size_t step : {std::size_t(1), std::size_t(2), std::size_t(5), stream.size()}) {
    std::vector<SseEvent> events;
    SseParser p([&](const SseEvent& e) { events.push_back(e); });
    for (std::size_t i = 0; i < stream.size(); i += step) p.feed(std::string_view(stream).substr(i, step));
    REQUIRE(events.size() == 3);
    CHECK(events[0].data == "{\"a\":1}");
    CHECK(events[0].id == "7");
    CHECK(events[0].event == "message");
    CHECK(events[1].data == "line one\nline two");
    CHECK(events[2].data == "cr only");
    CHECK(p.retry_ms() == 1500);
    CHECK(p.last_event_id() == "8");  // a priming event (id, no data) delivers nothing but counts
  }
}

TEST_CASE("an SSE line that never ends is refused at the bound", "[sse]") {
  SseParser p([](const SseEvent&) {}, 64);
  CHECK_THROWS_AS(p.feed(std::string(100, 'x')), mcpref::SseTooLarge);
}

TEST_CASE("named events keep their name", "[sse]") {
  std::vector<SseEvent> events;
  SseParser p([&](const SseEvent& e) { events.push_back(e); });
  p.feed("event: endpoint\ndata: /messages\n\n");
  REQUIRE(events.size() == 1);
  CHECK(events[0].event == "endpoint");
}
