// Fuzz target: the WebSocket frame decoder, fed what a server sends (client role: the ws transport)
// and what a client sends (server role: the server end that tests WebSocket clients; frames masked).
// MCPSPEC_FUZZ_BYTES_ONLY: the input is raw frames, not JSON (byte mutation only).
// Invariants (abort when broken):
//  - the messages and the error do not depend on how the bytes were split into reads;
//  - no message exceeds the size bound; control messages are at most 125 bytes;
//  - once the decoder reported an error it keeps refusing input.
#include "fuzz/support/fuzz_target.hpp"

#include "harness/transport/http/ws_frame.hpp"

#include <string>
#include <utility>
#include <vector>

using mcpspec::transport::http::WsDecoder;
using mcpspec::transport::http::WsMessage;
using mcpspec::transport::http::WsOpcode;
using mcpspec::transport::http::WsRole;

namespace {

struct Outcome {
  std::vector<WsMessage> messages;
  bool ok = true;
  std::string error;
};

Outcome decode(std::string_view bytes, std::size_t max, std::uint64_t seed, WsRole role) {
  WsDecoder d(max, role);
  Outcome o;
  std::size_t pos = 0;
  while (pos < bytes.size() && o.ok) {
    std::size_t n = seed == 0 ? bytes.size() : 1 + (seed >> 7) % 13;
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    if (n > bytes.size() - pos) n = bytes.size() - pos;
    o.ok = d.feed(bytes.substr(pos, n), o.messages);
    pos += n;
  }
  if (!o.ok) {
    std::vector<WsMessage> more;
    MCPSPEC_FUZZ_CHECK(!d.feed("\x81\x01x", more) && more.empty(), "a failed decoder refuses further input");
  }
  o.error = d.error();
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto bytes = mcpspec::fuzz::as_text(data, size);
  auto h = mcpspec::fuzz::input_hash(bytes);
  for (auto [role, max] : {std::pair{WsRole::Client, std::size_t{16}}, std::pair{WsRole::Client, std::size_t{1} << 20},
                            std::pair{WsRole::Server, std::size_t{16}}, std::pair{WsRole::Server, std::size_t{1} << 20}}) {
    auto whole = decode(bytes, max, 0, role);
    auto split = decode(bytes, max, h | 1, role);
    MCPSPEC_FUZZ_CHECK(whole.ok == split.ok && whole.error == split.error, "the outcome does not depend on splits");
    MCPSPEC_FUZZ_CHECK(whole.messages.size() == split.messages.size(), "same messages whatever the splits");
    for (std::size_t i = 0; i < whole.messages.size(); ++i) {
      const auto& m = whole.messages[i];
      MCPSPEC_FUZZ_CHECK(m.payload == split.messages[i].payload && m.opcode == split.messages[i].opcode,
                         "same messages whatever the splits");
      MCPSPEC_FUZZ_CHECK(m.payload.size() <= max, "messages stay within the bound");
      if (static_cast<int>(m.opcode) >= 8) MCPSPEC_FUZZ_CHECK(m.payload.size() <= 125, "control frames are short");
    }
  }
  return 0;
}
