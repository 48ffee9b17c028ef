#include "harness/proxy/trace_to_scenario.hpp"

#include "harness/protocol/message.hpp"
#include "harness/protocol/peer_json.hpp"
#include "harness/proxy/replay_values.hpp"
#include "harness/util/json_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

namespace mcpspec::proxy {

using nlohmann::json;
using protocol::Kind;

namespace {

// One c2s or s2c line of the trace.
struct Recorded {
  std::size_t line = 0;  // 1-based line of the trace file
  Direction dir = Direction::ClientToServer;
  double t_ms = 0;
  bool is_json = false;
  json msg;
  protocol::Classified c;
  std::string raw;
};

bool is_answer(const Recorded& r) { return r.is_json && (r.c.kind == Kind::Result || r.c.kind == Kind::Error); }

// Waits the replay allows a step: the default unless the recorded answer took over a second, then
// three times as long plus a second (a loaded machine), within the scenario limit of two minutes.
std::optional<int> within_for(double recorded_ms) {
  if (recorded_ms <= 1000) return std::nullopt;
  return static_cast<int>(std::min(120000.0, std::max(5000.0, std::ceil(recorded_ms * 3 + 1000))));
}

// The version member of an implementation's identity (serverInfo/clientInfo) changes with every
// release; the replay checks that it is a string.
void loosen_identity_version(json& matcher, const char* container, const char* info) {
  if (matcher.contains(container) && matcher[container].is_object() && matcher[container].contains(info) &&
      matcher[container][info].is_object() && matcher[container][info].contains("version"))
    matcher[container][info]["version"] = {{"$type", "string"}};
}

class Builder {
 public:
  Builder(std::vector<Recorded> recs, const FromTraceOptions& o) : recs_(std::move(recs)), o_(o) {
    target_ = o.role == scenario::Role::Server ? Direction::ServerToClient : Direction::ClientToServer;
    // Everything the replayed side sends, so that a volatile value of the target is captured only
    // when the replay sends it again.
    for (std::size_t i = 0; i < recs_.size(); ++i) {
      const auto& r = recs_[i];
      if (r.dir == target_ || !r.is_json || !r.msg.is_object()) continue;
      for (const char* part : {"params", "result", "error"})
        if (r.msg.contains(part)) values_.note_sent(i, r.msg[part]);
    }
  }

  FromTraceResult build() {
    if (o_.role == scenario::Role::Server) replay_client_side();
    else replay_server_side();
    if (steps_.empty()) throw std::runtime_error("the trace holds nothing the replay could do");
    return {scenario(), notes_};
  }

 private:
  bool replayed(const Recorded& r) const { return r.dir != target_; }

  // The first answer after position i, of the given direction, to the request id `id`.
  std::optional<std::size_t> answer_to(std::size_t i, Direction dir, const json& id) const {
    const std::string key = protocol::id_key(id);
    for (std::size_t k = i + 1; k < recs_.size(); ++k)
      if (recs_[k].dir == dir && is_answer(recs_[k]) && recs_[k].c.id && protocol::id_key(*recs_[k].c.id) == key)
        return k;
    return std::nullopt;
  }

  json answer_matcher(std::size_t k) {
    const auto& r = recs_[k];
    if (r.c.kind == Kind::Error) {
      json code = r.msg["error"].is_object() && r.msg["error"].contains("code") ? r.msg["error"]["code"] : json();
      return {{"error", code.is_null() ? json{{"$any", true}} : json{{"code", code}}}};
    }
    return {{"result", values_.matcher(k, r.msg["result"])}};
  }

  json body(const Recorded& r, const json& fields) const {
    json out = fields;
    if (r.msg.contains("params")) out["params"] = values_.message(r.msg["params"]);
    return out;
  }

  void add(json step, const Recorded& r, std::optional<int> within = std::nullopt) {
    if (within) step["within_ms"] = *within;
    step["note"] = fmt::format("trace line {}", r.line);
    steps_.push_back(std::move(step));
  }

  void note(const Recorded& r, const std::string& text) { notes_.push_back(fmt::format("trace line {}: {}", r.line, text)); }

  // --- Role server: the harness is the recorded client ---
  void replay_client_side() {
    std::set<std::size_t> consumed, awaited;
    for (std::size_t i = 0; i < recs_.size(); ++i) {
      const auto& r = recs_[i];
      if (!r.is_json) {
        if (replayed(r)) add({{"send_raw", r.raw}}, r);
        else note(r, "the server wrote a line that is not JSON; the replay does not expect it (the framing monitor reports it)");
        continue;
      }
      if (replayed(r)) client_message(i, consumed, awaited);
      else server_message(i, consumed, awaited);
    }
  }

  void client_message(std::size_t i, std::set<std::size_t>& consumed, std::set<std::size_t>& awaited) {
    const auto& r = recs_[i];
    switch (r.c.kind) {
      case Kind::Request: {
        auto k = answer_to(i, Direction::ServerToClient, *r.c.id);
        // A request step waits for its answer; that is the recorded order only when the client
        // sent nothing else before the answer came.
        bool in_order = k.has_value();
        for (std::size_t j = i + 1; k && j < *k; ++j)
          if (replayed(recs_[j]) && !is_answer(recs_[j])) in_order = false;
        if (in_order) {
          json expect = answer_matcher(*k);
          if (r.c.method == "initialize") loosen_identity_version(expect, "result", "serverInfo");
          add({{"request", body(r, {{"method", r.c.method}, {"id", *r.c.id}})}, {"expect", expect}}, r,
              within_for(recs_[*k].t_ms - r.t_ms));
          consumed.insert(*k);
        } else {
          add({{"send", values_.message(r.msg)}}, r);
          if (k) awaited.insert(*k);
          else note(r, fmt::format("request {} ({}) got no answer in the trace: sent, no answer expected", compact(*r.c.id), r.c.method));
        }
        break;
      }
      case Kind::Notification:
        add({{"notify", body(r, {{"method", r.c.method}})}}, r);
        break;
      case Kind::Result:
      case Kind::Error:
        break;  // an answer to a server request: the scenario's "answers" give it (server_message)
      default:
        add({{"send", r.msg}, {"invalid", true}}, r);
        note(r, std::string("the client sent a ") + protocol::kind_name(r.c.kind) + " message: sent as recorded, its answer is not expected");
    }
  }

  void server_message(std::size_t i, const std::set<std::size_t>& consumed, const std::set<std::size_t>& awaited) {
    const auto& r = recs_[i];
    switch (r.c.kind) {
      case Kind::Result:
      case Kind::Error:
        if (consumed.count(i)) break;
        if (awaited.count(i)) {
          json expect = answer_matcher(i);
          expect["id"] = *r.c.id;
          add({{"expect", expect}}, r);
        } else {
          note(r, "an answer to no request the client sent in the trace: not expected");
        }
        break;
      case Kind::Request: {
        json expect = {{"method", r.c.method}};
        if (r.msg.contains("params")) expect["params"] = values_.matcher(i, r.msg["params"]);
        add({{"expect", expect}}, r);
        // The harness answers the server's request as the recorded client did.
        auto k = answer_to(i, Direction::ClientToServer, *r.c.id);
        if (k) {
          const auto& a = recs_[*k];
          json answer = a.c.kind == Kind::Error ? json{{"error", values_.message(a.msg["error"])}}
                                                : json{{"result", values_.message(a.msg["result"])}};
          answers_[r.c.method].push_back(answer);
        } else {
          note(r, fmt::format("the client never answered the server's {} in the trace: the harness gives its default answer", r.c.method));
        }
        break;
      }
      case Kind::Notification:
        // Progress depends on timing (how many, which values); the monitors still check each.
        if (r.c.method == "notifications/progress") {
          ++progress_skipped_;
          break;
        }
        {
          json expect = {{"method", r.c.method}};
          if (r.msg.contains("params")) expect["params"] = values_.matcher(i, r.msg["params"]);
          add({{"expect", expect}}, r);
        }
        break;
      default:
        note(r, std::string("the server sent a ") + protocol::kind_name(r.c.kind) + " message: not expected by the replay");
    }
  }

  // --- Role client: the harness is the recorded server ---
  void replay_server_side() {
    std::map<std::string, std::string> request_capture;  // id key of a client request -> capture
    std::set<std::size_t> consumed;
    int n = 0;
    for (std::size_t i = 0; i < recs_.size(); ++i) {
      const auto& r = recs_[i];
      if (!r.is_json) {
        if (replayed(r)) add({{"send_raw", r.raw}}, r);
        else note(r, "the client wrote a line that is not JSON; the replay does not expect it (the framing monitor reports it)");
        continue;
      }
      if (!replayed(r)) {  // the client under test
        if (r.c.kind == Kind::Request || r.c.kind == Kind::Notification) {
          json expect = {{"method", r.c.method}};
          if (r.msg.contains("params")) expect["params"] = values_.matcher(i, r.msg["params"]);
          if (r.c.method == "initialize") loosen_identity_version(expect, "params", "clientInfo");
          json step = {{"expect", expect}};
          if (r.c.kind == Kind::Request) {
            std::string cap = fmt::format("request_{}", ++n);
            step["capture"] = {{cap, "/id"}};
            request_capture[protocol::id_key(*r.c.id)] = cap;
          }
          add(step, r);
        } else if (!(is_answer(r) && consumed.count(i))) {
          note(r, std::string("the client sent a ") + protocol::kind_name(r.c.kind) + " message no replayed request asked for: not expected");
        }
        continue;
      }
      switch (r.c.kind) {  // the recorded server
        case Kind::Result:
        case Kind::Error: {
          auto cap = r.c.id ? request_capture.find(protocol::id_key(*r.c.id)) : request_capture.end();
          if (cap == request_capture.end()) {
            note(r, "the server answered a request the client did not send in the trace: not replayed");
            break;
          }
          json reply = r.c.kind == Kind::Error ? json{{"error", values_.message(r.msg["error"])}}
                                               : json{{"result", values_.message(r.msg["result"])}};
          add({{"reply", reply}, {"to", "${" + cap->second + "}"}}, r);
          break;
        }
        case Kind::Request: {
          auto k = answer_to(i, Direction::ClientToServer, *r.c.id);
          if (k) {
            add({{"request", body(r, {{"method", r.c.method}})}, {"expect", answer_matcher(*k)}}, r,
                within_for(recs_[*k].t_ms - r.t_ms));
            consumed.insert(*k);
          } else {
            add({{"send", values_.message(r.msg)}}, r);
            note(r, fmt::format("the client never answered the server's {} in the trace: sent, no answer expected", r.c.method));
          }
          break;
        }
        case Kind::Notification:
          add({{"notify", body(r, {{"method", r.c.method}})}}, r);
          break;
        default:
          add({{"send", r.msg}, {"invalid", true}}, r);
          note(r, std::string("the server sent a ") + protocol::kind_name(r.c.kind) + " message: sent as recorded");
      }
    }
  }

  json scenario() {
    const bool server = o_.role == scenario::Role::Server;
    std::string stem = std::filesystem::path(o_.source).stem().string();
    if (stem.empty()) stem = "trace";
    for (auto& ch : stem)
      if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '_' && ch != '.') ch = '-';
    std::size_t exchanges = 0;
    for (const auto& s : steps_) exchanges += s.contains("request") || s.contains("reply") ? 1 : 0;
    if (progress_skipped_)
      notes_.push_back(fmt::format("{} progress notification(s) of the server are not expected (their number and values depend on "
                                   "timing); the progress monitor still checks every one",
                                   progress_skipped_));
    json doc = {
        {"id", o_.id.empty() ? "trace/replay/" + stem : o_.id},
        {"title", fmt::format("The {} answers the recorded exchange of {} as it did when it was recorded",
                              server ? "server" : "client", o_.source.empty() ? "the trace" : o_.source)},
        {"description",
         fmt::format("Written by mcpspec scenario from-trace from {} ({} step(s), {} exchange(s)). The harness replays the "
                     "recorded {}'s side; values that change between runs are captured or matched by type. Edit freely.",
                     o_.source.empty() ? "a trace" : o_.source, steps_.size(), exchanges, server ? "client" : "server")},
        {"role", server ? "server" : "client"},
        {"requirements", json::array({"MCPSPEC-REPLAY"})},
        {"level", "MUST"},
        {"tags", json::array({"replay"})},
        {"fixture", "none"},
        {"steps", steps_}};
    if (!answers_.empty()) doc["answers"] = answers_;
    return doc;
  }

  std::vector<Recorded> recs_;
  FromTraceOptions o_;
  Direction target_ = Direction::ServerToClient;
  ReplayValues values_;
  json steps_ = json::array();
  json answers_ = json::object();
  std::vector<std::string> notes_;
  std::size_t progress_skipped_ = 0;
};

}  // namespace

FromTraceResult scenario_from_trace(const std::vector<TraceEntry>& trace, const FromTraceOptions& options) {
  std::vector<Recorded> recs;
  std::size_t line = 0;
  for (const auto& e : trace) {
    ++line;
    if (e.dir == Direction::Stderr || is_metadata_only(e)) continue;
    Recorded r;
    r.line = line;
    r.dir = e.dir;
    r.t_ms = e.t_ms;
    r.raw = e.text;
    // The gate every reader of peer output goes through (bounded depth and numbers).
    auto read = protocol::read_peer_json(e.text);
    if (read.status == protocol::PeerJson::Status::Ok) {
      r.msg = std::move(read.value);
      r.is_json = true;
      r.c = protocol::classify(r.msg);
      // A message with envelope problems (a null id, a request without "jsonrpc") is not rebuilt
      // into a request step: it is sent as recorded, or noted when the target sent it.
      if (!r.c.problems.empty()) r.c.kind = Kind::Invalid;
    }
    recs.push_back(std::move(r));
  }
  if (std::none_of(recs.begin(), recs.end(), [](const Recorded& r) { return r.is_json; }))
    throw std::runtime_error("the trace holds no JSON message of the client or the server");
  return Builder(std::move(recs), options).build();
}

}  // namespace mcpspec::proxy
