// Fuzz target: the SSE (text/event-stream) parser of the HTTP transports, fed a server's body.
// MCPSPEC_FUZZ_BYTES_ONLY: the input is an event stream, not JSON (byte mutation only).
// Invariants (abort when broken):
//  - the events do not depend on how the body was split into reads (a BOM split across the first
//    reads is the documented exception, so the first read is always whole);
//  - an oversize event carries no data; other events stay within the size bound;
//  - a data-less event has empty data; ids never contain NUL; retry is a plain number.
#include "fuzz/support/fuzz_target.hpp"

#include "harness/transport/http/sse_parser.hpp"

#include <string>
#include <vector>

using mcpspec::transport::http::SseEvent;
using mcpspec::transport::http::SseParser;

namespace {

std::vector<SseEvent> parse(std::string_view body, std::size_t max, std::uint64_t chunk_seed, std::string& last_id) {
  SseParser p(max);
  std::vector<SseEvent> out;
  std::size_t pos = 0;
  bool first = true;
  while (pos < body.size()) {
    std::size_t n = chunk_seed == 0 ? body.size() : 1 + (chunk_seed >> 7) % 11;
    if (first && n < 3) n = 3;
    first = false;
    chunk_seed = chunk_seed * 6364136223846793005ull + 1442695040888963407ull;
    if (n > body.size() - pos) n = body.size() - pos;
    p.feed(body.substr(pos, n), out);
    pos += n;
  }
  p.finish();
  last_id = p.last_event_id();
  return out;
}

bool same(const std::vector<SseEvent>& a, const std::vector<SseEvent>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].event != b[i].event || a[i].data != b[i].data || a[i].id != b[i].id || a[i].retry != b[i].retry ||
        a[i].has_data != b[i].has_data || a[i].oversize != b[i].oversize)
      return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto body = mcpspec::fuzz::as_text(data, size);
  auto h = mcpspec::fuzz::input_hash(body);
  for (std::size_t max : {std::size_t{8}, std::size_t{64}, std::size_t{1} << 20}) {
    std::string last_whole, last_chunked;
    auto whole = parse(body, max, 0, last_whole);
    auto chunked = parse(body, max, h | 1, last_chunked);
    MCPSPEC_FUZZ_CHECK(same(whole, chunked), "events do not depend on how the body was split");
    MCPSPEC_FUZZ_CHECK(last_whole == last_chunked, "the last event id does not depend on the split");
    for (const auto& e : whole) {
      if (e.oversize) {
        MCPSPEC_FUZZ_CHECK(e.data.empty() && !e.has_data, "an oversize event carries no data");
        continue;
      }
      MCPSPEC_FUZZ_CHECK(e.data.size() <= max && e.event.size() <= max, "events stay within the bound");
      MCPSPEC_FUZZ_CHECK(e.has_data || e.data.empty(), "a data-less event has empty data");
      if (e.id) MCPSPEC_FUZZ_CHECK(e.id->find('\0') == std::string::npos, "ids never contain NUL");
      if (e.retry) MCPSPEC_FUZZ_CHECK(*e.retry >= 0, "retry is a plain number");
      MCPSPEC_FUZZ_CHECK(!e.type().empty(), "every event has a type");
    }
  }
  return 0;
}
