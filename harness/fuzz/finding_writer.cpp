#include "harness/fuzz/finding_writer.hpp"

#include "harness/protocol/json_depth.hpp"
#include "harness/util/json_text.hpp"

#include <cctype>
#include <functional>
#include <set>

namespace mcpspec::fuzz {

using nlohmann::json;

namespace {

// The scenario runner substitutes variables into `send` values down to 256 levels; a step and
// the message's own envelope add a few more.
constexpr std::size_t kMaxSendDepth = 200;

std::string slug(const std::string& s, std::size_t max = 40) {
  std::string out;
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!out.empty() && out.back() != '-') out += '-';
    if (out.size() >= max) break;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "x" : out;
}

std::string hash_hex(const std::string& s) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a: stable across runs and platforms
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return std::string(buf, 8);
}

// The step that writes one message. JSON that survives a parse/dump round trip goes as `send`
// (so the runner tracks its id); anything else goes byte for byte as `send_raw`.
json send_step(const FuzzMessage& m) {
  // A message nested deeper than the runner substitutes into (kMaxSendDepth) goes as text: a
  // `send` of it would be refused when the scenario is replayed.
  if (protocol::json_nests_deeper_than(m.bytes, kMaxSendDepth)) return {{"send_raw", m.bytes}};
  json parsed = json::parse(m.bytes, nullptr, false);
  if (!parsed.is_discarded() && parsed.dump() == m.bytes) return {{"send", parsed}, {"invalid", true}};
  // Scenario files are JSON text: bytes that are not UTF-8 cannot be carried exactly; they are
  // replaced (U+FFFD) and the report says so.
  json text = json(m.bytes);
  return {{"send_raw", json::parse(text.dump(-1, ' ', false, json::error_handler_t::replace))}};
}

// The answers a correct server owes the messages sent, as expect steps, so that a silence check
// after them does not take those answers for extra output. A request with a readable id owes one
// with that id; a malformed one may be refused with id null instead. Requests cancelled later in
// the sequence may go unanswered, and `skip` (the id the oracle's own step expects) is left out once.
std::vector<json> owed_answers(const std::vector<FuzzMessage>& messages, std::optional<json> skip,
                               const std::string& note, int within_ms) {
  std::set<std::string> cancelled;
  for (const auto& m : messages) {
    if (!m.notification || m.method != "notifications/cancelled") continue;
    json c = json::parse(m.bytes, nullptr, false);
    if (c.is_object() && c.contains("params") && c["params"].is_object() && c["params"].contains("requestId"))
      cancelled.insert(compact(c["params"]["requestId"]));
  }
  std::vector<json> out;
  for (const auto& m : messages) {
    if (!m.id || m.method == "(batch)" || cancelled.count(compact(*m.id))) continue;
    if (skip && *skip == *m.id) {
      skip.reset();
      continue;
    }
    json id = m.may_get_null_error ? json{{"$in", json::array({*m.id, nullptr})}} : *m.id;
    out.push_back({{"expect", {{"id", id}}}, {"within_ms", within_ms}, {"note", note}});
  }
  return out;
}

}  // namespace

std::string finding_file_name(const Anomaly& a) {
  return slug(a.oracle) + "-" + slug(a.method, 30) + "-" + hash_hex(a.key()) + ".json";
}

json finding_scenario(const Minimized& m, const FindingContext& ctx) {
  const Anomaly& a = m.anomaly;
  std::string note = "fuzz oracle " + a.oracle + ": " + a.detail;
  json steps = json::array();
  steps.push_back({{"request",
                    {{"method", "initialize"},
                     {"params",
                      {{"protocolVersion", ctx.version},
                       {"capabilities", json::object()},
                       {"clientInfo", {{"name", "mcpspec-fuzz-replay"}, {"version", MCPSPEC_VERSION}}}}}}},
                   {"expect", {{"result", {{"protocolVersion", {{"$type", "string"}}}}}}},
                   {"note", "the handshake the fuzzer performed"}});
  steps.push_back({{"notify", {{"method", "notifications/initialized"}}}});
  for (const auto& msg : m.messages) steps.push_back(send_step(msg));

  // The id of the message the oracle's answer belongs to, when the replay sends it (an answer to
  // one of the fuzzer's own probes, or a wrong guess, names an id the scenario never uses).
  std::optional<json> tid;
  for (const auto& msg : m.messages)
    if (a.trigger_id && msg.id && *msg.id == *a.trigger_id) tid = a.trigger_id;
  auto ping = [&](const std::string& why) {
    return json{{"request", {{"method", "ping"}}},
                {"expect", {{"result", json::object()}}},
                {"within_ms", ctx.timeout_ms},
                {"note", why}};
  };
  if (a.oracle == oracle::internal_error || a.oracle == oracle::wrong_error_code) {
    // Only an unknown method has one right code. Otherwise a correct server may pick another
    // fair one (a method it does not implement is -32601 whatever its params), so the replay
    // checks just what the oracle judged: not -32603.
    json code = a.demanded_code == -32601 ? json(-32601) : json{{"$not", -32603}};
    json matcher = {{"error", {{"code", code}}}};
    if (tid) matcher["id"] = *tid;
    steps.push_back({{"expect", matcher}, {"within_ms", ctx.timeout_ms}, {"note", note}});
  } else if ((a.oracle == oracle::schema || a.oracle == oracle::no_response) && tid) {
    // The schema monitor judges the answer; expecting it makes the runner wait for it.
    steps.push_back({{"expect", {{"id", *tid}}}, {"within_ms", ctx.timeout_ms}, {"note", note}});
  } else if (a.oracle == oracle::wrong_id && tid) {
    steps.push_back({{"expect", {{"id", *tid}}}, {"within_ms", ctx.timeout_ms}, {"note", note}});
  }
  // Whatever the oracle, a correct server is still there and answers ping; monitors (framing,
  // unsolicited and duplicate responses, schema, alive) see what went wrong on the way.
  bool silence = a.oracle == oracle::response_to_notification || a.oracle == oracle::wrong_id ||
                 a.oracle == oracle::not_json_rpc || a.oracle == oracle::schema;
  if (silence)
    for (auto& step : owed_answers(m.messages, tid, note, ctx.timeout_ms)) steps.push_back(std::move(step));
  steps.push_back(ping(note));
  if (silence) steps.push_back({{"expect_silence_ms", 300}, {"note", note}});

  std::string method = a.method.empty() ? "?" : a.method;
  json sc = {
      {"id", "fuzz/" + slug(a.oracle) + "/" + slug(method, 40) + "-" + hash_hex(a.key())},
      {"title", "Live fuzzing: " + a.oracle + " (" + method + "): " + a.signature},
      {"description",
       "Found by mcpspec fuzz against " + ctx.target + " (seed " + std::to_string(ctx.seed) + ", job " + std::to_string(ctx.job) + ", after " +
           std::to_string(ctx.message_number) + " messages), minimized to " + std::to_string(m.messages.size()) +
           " message(s) after the handshake in " + std::to_string(m.replays) + " replays" +
           (m.reproduced ? "" : " (NOT reproduced in a fresh process: the sequence is kept whole as evidence)") +
           ". Oracle " + a.oracle + ": " + a.detail + ". Received: " + a.received},
      {"role", "server"},
      {"requirements", requirements_of(a)},
      {"level", "MUST"},
      {"tags", {"fuzz", a.oracle}},
      {"fixture", "none"},
      {"timeout_ms", ctx.timeout_ms},
      {"steps", steps},
  };
  return sc;
}

}  // namespace mcpspec::fuzz
