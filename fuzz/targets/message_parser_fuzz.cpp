// Fuzz target: the inbound path of a stdio peer, bytes -> LineFramer -> JSON -> classify() ->
// schema validation, as Session::on_frame/on_message do it.
// MCPSPEC_FUZZ_SELECTOR_BYTE: the first byte chooses the protocol version and the sender every
// message of the input is validated as (selector_byte.hpp); the rest is the server's output.
// Validating each message in all versions for both senders made one execution about eight times
// the work of one choice; with the choice in the input, libFuzzer still reaches every version's
// schemas and keeps inputs for what each one covers.
// Invariants (abort when broken):
//  - framing does not depend on how the bytes were chunked, and frames rebuild the input exactly;
//    oversize frames report a length above the limit and keep a short prefix only;
//  - JSON parsing throws nothing but parse_error and out_of_range (what the session catches;
//    FrameParser checks the type of the error json::parse would throw, without throwing it);
//  - classify() is total (never throws) and consistent with the value's shape;
//  - a classified message serializes and re-parses to the same value, integers as integers and
//    floats as floats (so it classifies the same: classify() reads nothing else);
//  - validation never throws, in any version, for either sender, and our own schemas leave no
//    part of a message unchecked.
#include "fuzz/support/fuzz_target.hpp"
#include "fuzz/support/same_value_sax.hpp"
#include "fuzz/support/selector_byte.hpp"

#include "harness/protocol/json_depth.hpp"
#include "harness/protocol/message.hpp"
#include "harness/protocol/schema_registry.hpp"
#include "harness/transport/line_framer.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <type_traits>
#include <vector>

using nlohmann::json;
using mcpspec::fuzz::SameValueSax;
using mcpspec::transport::LineFramer;
namespace proto = mcpspec::protocol;

namespace {

// Same frames whatever the chunking; `frames` get the result.
std::vector<LineFramer::Frame> frame(std::string_view bytes, std::size_t max, std::uint64_t chunk_seed) {
  LineFramer f(max);
  std::size_t pos = 0;
  while (pos < bytes.size()) {
    std::size_t n = chunk_seed == 0 ? bytes.size() : 1 + (chunk_seed % 7) * (pos % 5 + 1);
    chunk_seed = chunk_seed * 6364136223846793005ull + 1442695040888963407ull;
    if (n > bytes.size() - pos) n = bytes.size() - pos;
    f.feed(bytes.substr(pos, n));
    pos += n;
  }
  f.finish();
  std::vector<LineFramer::Frame> out;
  while (f.has_frame()) out.push_back(f.pop());
  MCPSPEC_FUZZ_CHECK(f.buffered() == 0, "finish() leaves nothing buffered");
  return out;
}

bool same_frames(const std::vector<LineFramer::Frame>& a, const std::vector<LineFramer::Frame>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].text != b[i].text || a[i].oversize != b[i].oversize || a[i].length != b[i].length) return false;
  return true;
}

// Checks the framing invariants and returns the frames of the whole input (unbounded limit), which
// the caller parses. `small_limit` is the bounded limit this input is framed under as well.
std::vector<LineFramer::Frame> check_framing(std::string_view bytes, std::uint64_t h, std::size_t small_limit) {
  // Unbounded limit: frames are exactly the lines of the input.
  auto whole = frame(bytes, bytes.size() + 1, 0);
  std::string rebuilt;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    MCPSPEC_FUZZ_CHECK(!whole[i].oversize, "no frame is oversize under an unbounded limit");
    MCPSPEC_FUZZ_CHECK(whole[i].text.find('\n') == std::string::npos, "a frame holds no newline");
    MCPSPEC_FUZZ_CHECK(whole[i].length == whole[i].text.size(), "length of a complete frame is its size");
    rebuilt += whole[i].text;
    if (i + 1 < whole.size() || (!bytes.empty() && bytes.back() == '\n')) rebuilt += '\n';
  }
  // A trailing empty partial line is not a frame; an empty line between newlines is.
  MCPSPEC_FUZZ_CHECK(rebuilt == bytes, "frames rebuild the input");
  MCPSPEC_FUZZ_CHECK(same_frames(whole, frame(bytes, bytes.size() + 1, h | 1)), "chunking changes nothing");

  // A small limit: oversize lines are cut, counted and reported.
  auto small = frame(bytes, small_limit, 0);
  MCPSPEC_FUZZ_CHECK(same_frames(small, frame(bytes, small_limit, h | 1)), "chunking changes nothing (small limit)");
  MCPSPEC_FUZZ_CHECK(small.size() == whole.size(), "an oversize line is still one frame");
  for (std::size_t i = 0; i < small.size(); ++i) {
    MCPSPEC_FUZZ_CHECK(small[i].length == whole[i].length, "oversize frames count the whole line");
    MCPSPEC_FUZZ_CHECK(small[i].oversize == (whole[i].length > small_limit), "oversize exactly when over the limit");
    if (small[i].oversize)
      MCPSPEC_FUZZ_CHECK(small[i].text.size() <= 256 && whole[i].text.compare(0, small[i].text.size(), small[i].text) == 0,
                         "an oversize frame keeps a short prefix of the line");
    else
      MCPSPEC_FUZZ_CHECK(small[i].text == whole[i].text, "a line within the limit is kept whole");
  }
  return whole;
}

void check_classified(const json& msg, const proto::Classified& c) {
  if (msg.is_array()) MCPSPEC_FUZZ_CHECK(c.kind == proto::Kind::Batch, "an array is a batch");
  else if (!msg.is_object()) MCPSPEC_FUZZ_CHECK(c.kind == proto::Kind::Invalid && !c.problems.empty(), "a scalar is invalid");
  if (c.kind == proto::Kind::Invalid) MCPSPEC_FUZZ_CHECK(!c.problems.empty(), "an invalid message says why");
  if (c.kind == proto::Kind::Request) MCPSPEC_FUZZ_CHECK(c.id.has_value(), "a request has an id");
  if (c.kind == proto::Kind::Notification) MCPSPEC_FUZZ_CHECK(!c.id.has_value(), "a notification has no id");
  if (c.kind == proto::Kind::Request || c.kind == proto::Kind::Notification)
    MCPSPEC_FUZZ_CHECK(msg.contains("method") && msg["method"] == c.method, "the method is the message's");
  if (c.id) {
    MCPSPEC_FUZZ_CHECK(msg.is_object() && msg.contains("id") && msg["id"] == *c.id, "the id is the message's");
    MCPSPEC_FUZZ_CHECK(!proto::id_key(*c.id).empty(), "every id has a key");
  }
  MCPSPEC_FUZZ_CHECK(proto::kind_name(c.kind) != nullptr, "every kind has a name");
}

// json::parse(text) as the session calls it, except that the error it would throw is handed here
// instead: nlohmann's parser passes every error it finds to this callback, which in
// json::parse throws it (json_sax_dom_parser::parse_error). Most fuzzed frames are not JSON, and
// throwing and catching (unwinding under ASan) cost more than parsing them. The error's type is
// checked here, so the invariant about what parsing throws stays the same.
class FrameParser : public nlohmann::detail::json_sax_dom_parser<json> {
 public:
  explicit FrameParser(json& out) : json_sax_dom_parser(out, false) {}
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& ex) {
    error_expected = std::is_same_v<Exception, json::parse_error> || std::is_same_v<Exception, json::out_of_range>;
    return json_sax_dom_parser::parse_error(position, token, ex);
  }
  bool error_expected = true;
};

// What the selector byte chose: selector % (2 x versions) counts client, server of the oldest
// version, then of the next ...; the rest of the byte (selector / (2 x versions)) picks the small
// limit the input is framed under as well (1, 16 or 300 bytes). Framing under all three limits for
// every input cost more than the parsing; with the limit in the input, libFuzzer still reaches
// each one and keeps inputs for what each covers (the custom mutator changes the byte now and then).
struct Choice {
  std::string version;
  proto::Sender sender = proto::Sender::Client;
  std::size_t small_limit = 16;
  const std::vector<proto::MethodInfo>* methods = nullptr;  // the version's method table
};

Choice choose(const proto::SchemaRegistry& registry, unsigned char selector) {
  // The built-in registry never changes: its versions and method tables are read once (methods()
  // sorts a fresh table on every call).
  static const std::vector<std::string> versions = registry.versions();
  static const std::vector<std::vector<proto::MethodInfo>> tables = [&] {
    std::vector<std::vector<proto::MethodInfo>> t;
    for (const auto& v : versions) t.push_back(registry.methods(v));
    return t;
  }();
  MCPSPEC_FUZZ_CHECK(!versions.empty(), "the registry knows a version");
  const std::size_t choices = 2 * versions.size();
  const std::size_t k = selector % choices;
  static constexpr std::size_t kSmallLimits[] = {1, 16, 300};
  return {versions[k / 2], k % 2 == 0 ? proto::Sender::Client : proto::Sender::Server,
          kSmallLimits[(selector / choices) % 3], &tables[k / 2]};
}

void check_message(const json& msg, std::uint64_t h, const proto::SchemaRegistry& registry, const Choice& choice) {
  proto::Classified c;
  try {
    c = proto::classify(msg);
  } catch (...) {
    MCPSPEC_FUZZ_CHECK(false, "classify() throws nothing");
  }
  check_classified(msg, c);

  // Round trip: what the harness logs and reports is what it received. The text is parsed back
  // against the value itself (same_value_sax.hpp), with no second document, and an integer must
  // come back an integer, a float a float: that makes a second classify() redundant, since
  // classify() reads nothing but the value, its JSON types and whether a number is an integer
  // (the same value, the same classification).
  static SameValueSax round_trip;
  MCPSPEC_FUZZ_CHECK(round_trip.same(msg.dump(), msg), "serialize + parse gives the same value (and types)");

  std::string answered;
  if (c.kind == proto::Kind::Result || c.kind == proto::Kind::Error) {
    // Responses are checked against the result of a method picked from the input's hash, and
    // against the generic result.
    const auto& methods = *choice.methods;
    if (!methods.empty() && (h & 1)) answered = methods[(h >> 1) % methods.size()].name;
  }
  try {
    auto outcome = registry.validate(msg, choice.version, choice.sender, answered);
    MCPSPEC_FUZZ_CHECK(outcome.valid == outcome.issues.empty(), "invalid exactly when there are issues");
    MCPSPEC_FUZZ_CHECK(outcome.unchecked.empty(), "our own schemas can check every message");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "validate(%s) threw: %s\n", choice.version.c_str(), e.what());
    MCPSPEC_FUZZ_CHECK(false, "validation throws nothing");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto split = mcpspec::fuzz::split_selector(mcpspec::fuzz::as_text(data, size));
  if (!split) return 0;
  const auto& registry = proto::SchemaRegistry::builtin();
  const Choice choice = choose(registry, split->selector);
  std::string_view bytes = split->rest;
  auto h = mcpspec::fuzz::input_hash(bytes);
  for (auto& f : check_framing(bytes, h, choice.small_limit)) {
    // The session's gate: deeper frames are refused before parsing (json_depth.hpp). Without it a
    // 100000-level frame crashes the round trip below, as it crashed `mcpspec run`.
    if (mcpspec::protocol::json_nests_deeper_than(f.text)) continue;
    json msg;
    FrameParser parser(msg);
    bool parsed = false;
    try {
      parsed = json::sax_parse(f.text, &parser);
    } catch (...) {
      MCPSPEC_FUZZ_CHECK(false, "parsing throws nothing but parse_error and out_of_range");
    }
    if (!parsed) {
      // What json::parse, the session's call, would have thrown: only parse_error is expected,
      // and out_of_range for a number beyond a double (1e999); the session reports either and
      // drops the frame.
      MCPSPEC_FUZZ_CHECK(parser.error_expected, "parsing throws nothing but parse_error and out_of_range");
      continue;
    }
    check_message(msg, h, registry, choice);
  }
  return 0;
}
