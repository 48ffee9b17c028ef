// LineFramer: how a byte stream from the target becomes frames, and that a hostile stream (huge
// lines, no newline at all) costs bounded memory and leaves the following lines intact.
#include "harness/transport/line_framer.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

using mcpspec::transport::LineFramer;

namespace {

std::vector<LineFramer::Frame> drain(LineFramer& f) {
  std::vector<LineFramer::Frame> out;
  while (f.has_frame()) out.push_back(f.pop());
  return out;
}

}  // namespace

TEST_CASE("framer: one frame per newline, however the bytes are split", "[core][framer]") {
  const std::string stream = "{\"a\":1}\n{\"b\":2}\nthird line\n";
  // Every split point, and byte by byte: the frames never depend on how reads were chunked.
  for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
    LineFramer f(1024);
    f.feed(std::string_view(stream).substr(0, cut));
    f.feed(std::string_view(stream).substr(cut));
    auto frames = drain(f);
    INFO("cut at " << cut);
    REQUIRE(frames.size() == 3);
    CHECK(frames[0].text == "{\"a\":1}");
    CHECK(frames[1].text == "{\"b\":2}");
    CHECK(frames[2].text == "third line");
    for (const auto& fr : frames) {
      CHECK_FALSE(fr.oversize);
      CHECK(fr.length == fr.text.size());
    }
  }
  LineFramer bytewise(1024);
  for (char c : stream) bytewise.feed(std::string_view(&c, 1));
  auto frames = drain(bytewise);
  REQUIRE(frames.size() == 3);
  CHECK(frames[2].text == "third line");
  CHECK(bytewise.buffered() == 0);
}

TEST_CASE("framer: a frame is not ready before its newline", "[core][framer]") {
  LineFramer f(1024);
  f.feed("{\"partial\":");
  CHECK_FALSE(f.has_frame());
  CHECK(f.buffered() == 11);
  f.feed("true}");
  CHECK_FALSE(f.has_frame());
  f.feed("\n");
  REQUIRE(f.has_frame());
  CHECK(f.pop().text == "{\"partial\":true}");
  CHECK_FALSE(f.has_frame());
  CHECK(f.buffered() == 0);
}

TEST_CASE("framer: CR of a CRLF line ending is kept and the JSON parser accepts it", "[core][framer]") {
  LineFramer f(1024);
  f.feed("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r\n");
  REQUIRE(f.has_frame());
  auto fr = f.pop();
  CHECK(fr.text == "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r");
  // The framer does not guess about line endings; JSON treats the CR as trailing whitespace.
  auto parsed = nlohmann::json::parse(fr.text);
  CHECK(parsed["id"] == 1);
}

TEST_CASE("framer: empty lines are frames of their own (the session reports them)", "[core][framer]") {
  LineFramer f(1024);
  f.feed("\n\n{}\n\n");
  auto frames = drain(f);
  REQUIRE(frames.size() == 4);
  CHECK(frames[0].text.empty());
  CHECK(frames[1].text.empty());
  CHECK(frames[2].text == "{}");
  CHECK(frames[3].text.empty());
  for (const auto& fr : frames) CHECK_FALSE(fr.oversize);
}

TEST_CASE("framer: lines up to the limit pass, one byte more is oversize", "[core][framer]") {
  LineFramer f(10);
  f.feed(std::string(10, 'x') + "\n" + std::string(11, 'y') + "\n");
  auto frames = drain(f);
  REQUIRE(frames.size() == 2);
  CHECK_FALSE(frames[0].oversize);
  CHECK(frames[0].text == std::string(10, 'x'));
  CHECK(frames[1].oversize);
  CHECK(frames[1].length == 11);
}

TEST_CASE("framer: an oversize line keeps a prefix, reports its full length, and the next line is fine",
          "[core][framer]") {
  std::string big;
  for (int i = 0; i < 1000; ++i) big += static_cast<char>('a' + i % 26);
  SECTION("in one feed") {
    LineFramer f(100);
    f.feed(big + "\n{\"next\":1}\n");
    auto frames = drain(f);
    REQUIRE(frames.size() == 2);
    CHECK(frames[0].oversize);
    CHECK(frames[0].length == 1000);
    CHECK_FALSE(frames[0].text.empty());
    CHECK(frames[0].text.size() < big.size());
    CHECK(big.compare(0, frames[0].text.size(), frames[0].text) == 0);  // a true prefix
    CHECK_FALSE(frames[1].oversize);
    CHECK(frames[1].text == "{\"next\":1}");
  }
  SECTION("spread over many feeds, the limit crossed in the middle of one") {
    LineFramer f(100);
    for (std::size_t off = 0; off < big.size(); off += 37) f.feed(std::string_view(big).substr(off, 37));
    f.feed("\nnext\n");
    auto frames = drain(f);
    REQUIRE(frames.size() == 2);
    CHECK(frames[0].oversize);
    CHECK(frames[0].length == 1000);
    CHECK(big.compare(0, frames[0].text.size(), frames[0].text) == 0);
    CHECK(frames[1].text == "next");
    CHECK(frames[1].length == 4);
  }
  SECTION("the newline arrives in a feed of its own") {
    LineFramer f(100);
    f.feed(big);
    CHECK_FALSE(f.has_frame());
    f.feed("\n");
    auto frames = drain(f);
    REQUIRE(frames.size() == 1);
    CHECK(frames[0].oversize);
    CHECK(frames[0].length == 1000);
  }
}

TEST_CASE("framer: a trailing partial line becomes a frame at finish()", "[core][framer]") {
  SECTION("normal partial line") {
    LineFramer f(1024);
    f.feed("{\"a\":1}\n{\"b\":");
    REQUIRE(drain(f).size() == 1);
    f.finish();
    auto frames = drain(f);
    REQUIRE(frames.size() == 1);
    CHECK(frames[0].text == "{\"b\":");
    CHECK_FALSE(frames[0].oversize);
    CHECK(f.buffered() == 0);
  }
  SECTION("nothing pending: no frame") {
    LineFramer f(1024);
    f.feed("done\n");
    drain(f);
    f.finish();
    CHECK_FALSE(f.has_frame());
  }
  SECTION("an oversize line cut off by EOF") {
    LineFramer f(16);
    f.feed(std::string(100, 'z'));
    f.finish();
    auto frames = drain(f);
    REQUIRE(frames.size() == 1);
    CHECK(frames[0].oversize);
    CHECK(frames[0].length == 100);
    // The framer is usable again afterwards.
    f.feed("ok\n");
    auto again = drain(f);
    REQUIRE(again.size() == 1);
    CHECK(again[0].text == "ok");
    CHECK_FALSE(again[0].oversize);
  }
}

TEST_CASE("framer: a 10 MiB line against a 1 MiB limit uses bounded memory", "[core][framer]") {
  const std::size_t limit = 1 << 20;
  const std::size_t total = 10u << 20;
  LineFramer f(limit);
  const std::string chunk(64 * 1024, 'q');  // the size the transport reads at a time
  std::size_t fed = 0, most_buffered = 0, buffered_after_limit = 0;
  while (fed < total) {
    f.feed(chunk);
    fed += chunk.size();
    most_buffered = std::max(most_buffered, f.buffered());
    if (fed > limit + chunk.size()) buffered_after_limit = std::max(buffered_after_limit, f.buffered());
    REQUIRE_FALSE(f.has_frame());
  }
  // Before the limit is crossed the line is held (at most the limit); after it, only the prefix.
  CHECK(most_buffered <= limit);
  CHECK(buffered_after_limit <= 4096);
  f.feed("\n{\"after\":true}\n");
  auto frames = drain(f);
  REQUIRE(frames.size() == 2);
  CHECK(frames[0].oversize);
  CHECK(frames[0].length == total);
  CHECK(frames[0].text.size() <= 4096);
  CHECK(frames[1].text == "{\"after\":true}");
  CHECK(f.buffered() == 0);
}

TEST_CASE("framer: many short lines in one feed", "[core][framer]") {
  LineFramer f(64);
  std::string stream;
  for (int i = 0; i < 10000; ++i) stream += std::to_string(i) + "\n";
  f.feed(stream);
  int n = 0;
  while (f.has_frame()) {
    auto fr = f.pop();
    REQUIRE(fr.text == std::to_string(n));
    ++n;
  }
  CHECK(n == 10000);
}
