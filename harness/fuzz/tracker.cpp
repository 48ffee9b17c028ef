#include "harness/fuzz/tracker.hpp"

#include "harness/monitor/envelope.hpp"
#include "harness/monitor/framing.hpp"
#include "harness/monitor/schema_monitor.hpp"
#include "harness/protocol/json_depth.hpp"
#include "harness/protocol/message.hpp"
#include "harness/protocol/peer_json.hpp"
#include "harness/protocol/schema_registry.hpp"
#include "harness/util/json_text.hpp"

#include <algorithm>

namespace mcpspec::fuzz {

using nlohmann::json;

namespace {
constexpr std::size_t kMaxMalformed = 10000;
// Levels a server may wrap around a value it echoes (result, content, arguments...).
constexpr std::size_t kEchoLevels = 64;


bool readable_id(const json& id) { return id.is_string() || id.is_number_integer(); }
}  // namespace

std::string shorten(const std::string& s, std::size_t n) {
  if (s.size() <= n) return s;
  return s.substr(0, n) + "... (" + std::to_string(s.size()) + " bytes)";
}

Tracker::Tracker(const protocol::SchemaRegistry& schemas, std::string version)
    : schemas_(schemas),
      version_(std::move(version)),
      monitors_(protocol::Sender::Server, [&schemas](std::string_view v) { return schemas.has_version(v); }) {}

void Tracker::initialized_sent() {
  json note = {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}};
  monitors_.outbound(note, protocol::classify(note), false);
}

void Tracker::feed_monitors(const FuzzMessage& m) {
  // The monitors judge the target's messages by what was sent to it (the tokens it may report
  // progress on, the capabilities the handshake declared). A message nested near the reader's
  // limit is left out: reading it again would cost more than it could tell.
  if (!m.is_json || (m.at_limits && protocol::json_nests_deeper_than(m.bytes, kEchoLevels))) return;
  // Only what the monitors judge the server by is read again (this runs for every message sent):
  // the handshake, and requests that carry a progress token. The tracker matches responses itself.
  if (m.method != "initialize" && m.bytes.find("progressToken") == std::string::npos) return;
  json parsed = json::parse(m.bytes, nullptr, false);
  auto feed = [&](const json& one) {
    if (one.is_object()) monitors_.outbound(one, protocol::classify(one), m.may_get_null_error);
  };
  if (parsed.is_array())
    for (const auto& member : parsed) feed(member);
  else
    feed(parsed);
}

void Tracker::judge_by_monitors(const json& msg, const protocol::Classified& c, const std::string& text,
                                Result& out) {
  for (auto& f : monitors_.inbound(msg, c, version_).findings) {
    // The fuzzer may send one progress token on several requests in flight at once, so the order
    // of the progress reported for it says nothing about the target (PROG-03 is left to scenarios).
    if (std::find(f.requirements.begin(), f.requirements.end(), "PROG-03") != f.requirements.end()) continue;
    Anomaly a;
    a.oracle = oracle::monitor;
    a.method = c.method.empty() ? "?" : c.method;
    a.signature = f.monitor + " " + f.requirements.front();
    a.detail = f.message;
    a.received = shorten(text);
    a.requirements = std::move(f.requirements);
    out.anomalies.push_back(std::move(a));
  }
}

void Tracker::add_pending(Pending p) {
  std::string key = protocol::id_key(p.id);
  auto& seqs = by_id_[key];
  // An earlier request with this id that we gave up on (cancelled after a timeout) may still be
  // answered late: that answer would be taken for this request's.
  if (!seqs.empty() || forgotten_.contains(key)) {
    // The same id again while the first is in flight: either answer fits, neither is owed.
    // (Over HTTP each request is its own connection, so answers to the two can come in either
    // order; a server matching answers to waiting requests by id may also swap them.)
    for (std::size_t s : seqs) {
      auto it = by_seq_.find(s);
      if (it == by_seq_.end()) continue;
      if (!it->second.optional) --required_;
      it->second.optional = true;
      it->second.ambiguous = true;
    }
    p.optional = true;
    p.ambiguous = true;
  } else if (sent_ids_.contains(key)) {
    // An id used before in this session, which MCP forbids (ids are never reused): the server
    // must still answer, but what it answers may belong to the earlier request, so the answer's
    // content is not judged, nor is a second answer to it (over HTTP a server that matches
    // answers to waiting requests by id can hand one request's answer to the other).
    p.ambiguous = true;
    reused_.insert(key);
  }
  answered_.erase(key);
  sent_ids_.insert(key);
  if (!p.optional) ++required_;
  std::size_t s = seq_++;
  seqs.push_back(s);
  by_seq_.emplace(s, std::move(p));
}

void Tracker::remove_pending(std::map<std::size_t, Pending>::iterator it) {
  if (!it->second.optional) --required_;
  auto idit = by_id_.find(protocol::id_key(it->second.id));
  if (idit != by_id_.end()) {
    auto& seqs = idit->second;
    seqs.erase(std::remove(seqs.begin(), seqs.end(), it->first), seqs.end());
    if (seqs.empty()) by_id_.erase(idit);
  }
  by_seq_.erase(it);
}

void Tracker::on_sent(const FuzzMessage& m, std::size_t index, Clock::time_point at) {
  feed_monitors(m);
  for (const auto& [method, id] : m.batch_requests)
    add_pending(Pending{index, method, id, at, Demand::None, true, false});
  if (m.may_get_null_error) {
    malformed_.push_back({index, m.demand, m.method});
    if (malformed_.size() > kMaxMalformed) malformed_.pop_front();
    if (m.odd_id) {
      odd_ids_.emplace_back(*m.odd_id, Malformed{index, m.demand, m.method});
      if (odd_ids_.size() > 256) odd_ids_.pop_front();
    }
  }
  // An answer echoing a value this deep would be past the reader's limit (a few levels are
  // added around an echo): such frames are allowed, one per message.
  bool deep = m.at_limits && protocol::json_nests_deeper_than(m.bytes, protocol::kMaxJsonDepth - kEchoLevels);
  if (deep && deep_sent_ < kMaxMalformed) ++deep_sent_;
  if (m.id) {
    // Malformed with a readable id: its error may carry null. Cancelled in advance: it may be dropped.
    bool optional = m.may_get_null_error || precancelled_.contains(protocol::id_key(*m.id));
    Pending p{index, m.method, *m.id, at, m.demand, optional, m.cancellable};
    p.deep = deep;
    add_pending(std::move(p));
  }
  if (m.cancels && readable_id(*m.cancels)) {
    // Our cancellation: the target may drop the answer (or send it anyway, if it was already done).
    std::string key = protocol::id_key(*m.cancels);
    if (auto it = by_id_.find(key); it != by_id_.end()) {
      for (std::size_t s : it->second) {
        auto p = by_seq_.find(s);
        if (p != by_seq_.end() && !p->second.optional) {
          p->second.optional = true;
          --required_;
        }
      }
    } else {
      // A cancellation that comes before its request (a race we make on purpose): a server may
      // remember it and drop the request when it arrives, so that answer is not owed either.
      precancelled_.insert(key);
    }
  }
}

std::vector<Tracker::Pending> Tracker::waiting_since(Clock::time_point before) const {
  std::vector<Pending> out;
  for (const auto& [s, p] : by_seq_)
    if (p.sent < before) out.push_back(p);
  return out;
}

std::size_t Tracker::calls_in_flight() const {
  std::size_t n = 0;
  for (const auto& [s, p] : by_seq_) n += p.cancellable && !p.optional;
  return n;
}

std::optional<Tracker::Pending> Tracker::oldest_call() const {
  for (const auto& [s, p] : by_seq_)
    if (p.cancellable && !p.optional) return p;
  return std::nullopt;
}

bool Tracker::is_pending(const json& id) const { return by_id_.count(protocol::id_key(id)) > 0; }

void Tracker::forget(const json& id) {
  auto it = by_id_.find(protocol::id_key(id));
  if (it == by_id_.end()) return;
  auto p = by_seq_.find(it->second.front());
  if (p != by_seq_.end()) remove_pending(p);
  // A late answer to a request we gave up on is not a wrong id.
  std::string key = protocol::id_key(id);
  forgotten_.insert(key);
}

std::vector<Anomaly> Tracker::on_rejected(std::size_t index, int http_status, const std::string& body, bool lenient) {
  std::vector<Anomaly> out;
  const std::string status = "HTTP " + std::to_string(http_status);
  for (auto it = by_seq_.begin(); it != by_seq_.end();) {
    auto next = std::next(it);
    if (it->second.index == index) {
      const Pending p = it->second;
      if (!p.optional && !lenient) {
        Anomaly a;
        a.oracle = oracle::no_response;
        a.method = p.method.empty() ? "?" : p.method;
        a.signature = "refused with " + status;
        a.detail = "request " + compact(p.id) + " (" + p.method + ") is well-formed, but the server refused it with " +
                   status + " instead of answering it (a request gets a JSON or SSE answer: HTTP-15)";
        a.received = status + (body.empty() ? " (no body)" : ": " + shorten(body));
        a.trigger = index;
        a.trigger_id = p.id;
        out.push_back(std::move(a));
      }
      remove_pending(it);
      forgotten_.insert(protocol::id_key(p.id));  // an answer may still come some other way
    }
    it = next;
  }
  auto same = [index](const Malformed& m) { return m.index == index; };
  malformed_.erase(std::remove_if(malformed_.begin(), malformed_.end(), same), malformed_.end());
  odd_ids_.erase(std::remove_if(odd_ids_.begin(), odd_ids_.end(), [&](const auto& o) { return same(o.second); }),
                 odd_ids_.end());
  return out;
}

void Tracker::reset() {
  by_seq_.clear();
  by_id_.clear();
  required_ = 0;
  malformed_.clear();
  odd_ids_.clear();
}

Anomaly Tracker::oversize(const std::string& what) const {
  Anomaly a;
  a.oracle = oracle::not_json_rpc;
  a.method = "?";
  a.signature = "oversize line";
  a.detail = "the target wrote a line longer than the message size limit";
  a.received = shorten(what);
  return a;
}

Tracker::Result Tracker::on_frame(const std::string& text, Clock::time_point at) {
  Result out;
  // The one reader of peer frames: a value nested past its limit is never parsed, because
  // copying, serializing or validating it would recurse once per level (100 000 levels would
  // overflow our stack).
  auto read = protocol::read_peer_json(text);
  if (read.status == protocol::PeerJson::Status::TooDeep) {
    if (deep_sent_ > 0) {
      // We sent something that deep ourselves: an echo of it is fair, and cannot be read. It
      // is taken as the answer to the oldest such request still waiting.
      --deep_sent_;
      for (auto it = by_seq_.begin(); it != by_seq_.end(); ++it)
        if (it->second.deep) {
          answered_.insert(protocol::id_key(it->second.id));
          remove_pending(it);
          break;
        }
      return out;
    }
    Anomaly a;
    a.oracle = oracle::not_json_rpc;
    a.method = "?";
    a.signature = "nested too deep";
    a.detail = "the target wrote a line " + read.detail + ", though nothing we sent nests that deep";
    a.received = shorten(text);
    out.anomalies.push_back(std::move(a));
    return out;
  }
  if (read.status != protocol::PeerJson::Status::Ok) {
    bool number = read.status == protocol::PeerJson::Status::NumberOutOfRange;
    Anomaly a;
    a.oracle = oracle::not_json_rpc;
    a.method = "?";
    a.signature = number ? "number out of range" : "not JSON";
    a.detail = number ? "the target wrote a number no JSON reader can hold: " + read.detail
                      : monitor::unparsable_frame(text, protocol::Sender::Server, read.detail).message;
    a.received = shorten(text);
    out.anomalies.push_back(std::move(a));
    return out;
  }
  json msg = std::move(read.value);
  if (msg.is_array() && !msg.empty()) {
    // A batch answer: judge each member as if it came alone, then the batch's own schema.
    for (const auto& e : msg) {
      if (!e.is_object() || e.contains("method")) continue;
      judge_response(e, at, out);
    }
    return out;
  }
  auto c = protocol::classify(msg);
  if (c.kind == protocol::Kind::Invalid || c.kind == protocol::Kind::Batch) {
    Anomaly a;
    a.oracle = oracle::not_json_rpc;
    a.method = "?";
    a.signature = "not a JSON-RPC message";
    a.detail = "the target wrote JSON that is not a JSON-RPC message" +
               (c.problems.empty() ? std::string() : ": " + c.problems.front());
    a.received = shorten(text);
    out.anomalies.push_back(std::move(a));
    return out;
  }
  if (c.kind == protocol::Kind::Request || c.kind == protocol::Kind::Notification) {
    // The scenario conversations' schema monitor, with its wording.
    auto v = monitor::judge_schema(schemas_, msg, version_, protocol::Sender::Server);
    if (v.finding) {
      Anomaly a;
      a.oracle = oracle::schema;
      a.method = c.method;
      a.signature = v.definition;
      a.detail = "a " + std::string(protocol::kind_name(c.kind)) + " from the target is " + v.finding->message;
      a.received = shorten(text);
      out.anomalies.push_back(std::move(a));
    }
    judge_by_monitors(msg, c, text, out);
    if (c.kind == protocol::Kind::Request && c.id) {
      // We declared no client capabilities: only ping is ours to serve.
      if (c.method == "ping")
        out.reply = json{{"jsonrpc", "2.0"}, {"id", *c.id}, {"result", json::object()}};
      else
        out.reply = json{{"jsonrpc", "2.0"}, {"id", *c.id},
                         {"error", {{"code", -32601}, {"message", "the fuzzing client serves no " + c.method}}}};
      monitors_.outbound(*out.reply, protocol::classify(*out.reply), false);
    }
    return out;
  }
  judge_response(msg, at, out);
  return out;
}

void Tracker::judge_response(const json& msg, Clock::time_point at, Result& out) {
  auto c = protocol::classify(msg);
  // The response as text only when an anomaly quotes it: serializing every answer was the
  // single largest cost per message in a profile of the fuzzer.
  auto received = [&msg] { return shorten(compact(msg)); };
  bool is_error = c.kind == protocol::Kind::Error;
  const json id = msg.contains("id") ? msg["id"] : json(nullptr);
  std::string key = protocol::id_key(id);
  // The monitors' ledger records answers to what it was fed (the initialize answer says what the
  // server declared; an answered request's progress must stop). Which request a response answers
  // is judged below, by the tracker's own books.
  if (monitors_.ledger().ours.count(key)) monitors_.inbound(msg, c, version_);
  auto idit = readable_id(id) ? by_id_.find(key) : by_id_.end();

  if (idit == by_id_.end()) {
    // Not an answer to anything in flight.
    if (readable_id(id) && forgotten_.erase(key)) return;
    if (id.is_null() && is_error && !malformed_.empty()) {
      Malformed m = malformed_.front();
      malformed_.pop_front();
      const json* code = msg["error"].is_object() && msg["error"].contains("code") ? &msg["error"]["code"] : nullptr;
      if (code && code->is_number_integer() && code->get<long long>() == -32603 && m.demand != Demand::None) {
        Anomaly a;
        a.oracle = oracle::internal_error;
        a.method = m.method.empty() ? "?" : m.method;
        a.signature = std::string("-32603 for ") + demand_name(m.demand);
        a.detail = std::string("a ") + demand_name(m.demand) + " was answered with -32603 (internal error) instead of " +
                   std::to_string(demanded_code(m.demand));
        a.received = received();
        a.trigger = m.index;
        a.demanded_code = demanded_code(m.demand);
        out.anomalies.push_back(std::move(a));
      }
      return;
    }
    for (auto it = odd_ids_.begin(); it != odd_ids_.end(); ++it) {
      if (it->first != id) continue;
      // The server echoed an id MCP does not allow: answering is fair, but the answer must
      // still be a valid message (an id of that type is not).
      Malformed m = it->second;
      odd_ids_.erase(it);
      auto v = monitor::judge_schema(schemas_, msg, version_, protocol::Sender::Server);
      if (v.finding) {
        Anomaly a;
        a.oracle = oracle::schema;
        a.method = m.method.empty() ? "?" : m.method;
        a.signature = "response id";
        a.detail = "the answer to a request with the invalid id " + shorten(compact(id), 40) + " echoes it, so it is " +
                   v.finding->message;
        a.received = received();
        a.trigger = m.index;
        out.anomalies.push_back(std::move(a));
      }
      return;
    }
    if (readable_id(id) && reused_.contains(key) && answered_.contains(key)) return;  // see add_pending
    Anomaly a;
    a.method = "?";
    a.received = received();
    if (id.is_null() || !msg.contains("id")) {
      a.oracle = oracle::response_to_notification;
      a.signature = is_error ? "error with id null" : "result with id null";
      a.detail = "the target sent a response with no request id, answering a notification (or nothing)";
    } else {
      a.oracle = oracle::wrong_id;
      bool seen = readable_id(id) && (answered_.contains(key) || sent_ids_.contains(key));
      a.signature = seen ? "duplicate answer" : "unknown id";
      a.detail = seen ? "the target answered request id " + shorten(compact(id), 80) + " a second time"
                      : "the target answered with id " + shorten(compact(id), 80) + ", which no request of ours had";
      // The request it most likely meant: the oldest one still waiting. It is no longer owed an
      // answer (so a wrong id is reported once, not again as a missing answer), but stays on the
      // books: with many requests in flight the guess may be wrong, and that request's own answer
      // must still match when it comes rather than look like a second one.
      if (!seen && readable_id(id)) {
        for (auto& [s, p] : by_seq_) {
          if (p.optional) continue;
          // Only a guess: the method stays "?" (so one wrong-id bug is minimized once); the
          // minimizer names the method of the message that really provokes it.
          a.detail += " (probably the answer to request " + compact(p.id) + ", " + p.method + ")";
          a.trigger = p.index;
          a.trigger_id = p.id;  // a replay expects that answer: a correct server gives it
          p.optional = true;
          --required_;
          break;
        }
      }
    }
    out.anomalies.push_back(std::move(a));
    return;
  }

  auto pit = by_seq_.find(idit->second.front());  // the oldest request with this id
  Pending p = pit->second;
  remove_pending(pit);
  answered_.insert(key);
  // A malformed message answered with its own id: its null-id allowance is used up too.
  for (auto it = malformed_.begin(); it != malformed_.end(); ++it)
    if (it->index == p.index) {
      malformed_.erase(it);
      break;
    }
  out.latency_us = std::chrono::duration<double, std::micro>(at - p.sent).count();
  out.answered = p.index;
  if (!is_error && msg.contains("result")) out.result = msg["result"];

  auto base = [&](const char* o) {
    Anomaly a;
    a.oracle = o;
    // Made-up names (mcpspec.fuzz/unknown-51, TOOLS/CALLX) are one method for deduplication:
    // otherwise each name would be minimized and reported as a finding of its own.
    a.method = p.demand == Demand::UnknownMethod ? "(unknown method)" : p.method.empty() ? "?" : p.method;
    a.received = received();
    a.trigger = p.index;
    a.trigger_id = p.id;
    return a;
  };
  if (p.ambiguous) return;  // which of two requests with one id this answers cannot be known
  if (auto envelope = monitor::envelope_findings(c); !envelope.empty()) {
    Anomaly a = base(oracle::not_json_rpc);
    a.signature = "bad envelope";
    a.detail = "the response's JSON-RPC envelope is wrong: " + envelope.front().message;
    out.anomalies.push_back(std::move(a));
    return;
  }
  if (is_error) {
    const json& err = msg["error"];
    const json* code = err.is_object() && err.contains("code") ? &err["code"] : nullptr;
    long long code_v = code && code->is_number_integer() ? code->get<long long>() : 0;
    if (code_v == -32603 && p.demand != Demand::None) {
      Anomaly a = base(oracle::internal_error);
      a.signature = std::string("-32603 for ") + demand_name(p.demand);
      a.detail = std::string("a request with a ") + demand_name(p.demand) + " was answered -32603 (internal error) instead of " +
                 std::to_string(demanded_code(p.demand));
      a.demanded_code = demanded_code(p.demand);
      out.anomalies.push_back(std::move(a));
    } else if (p.demand == Demand::UnknownMethod && code && code_v != -32601) {
      Anomaly a = base(oracle::wrong_error_code);
      a.signature = "code " + compact(*code) + " for an unknown method";
      a.detail = "an unknown method was answered with code " + compact(*code) + " instead of -32601";
      a.demanded_code = -32601;
      out.anomalies.push_back(std::move(a));
    }
  } else if (p.demand == Demand::UnknownMethod) {
    Anomaly a = base(oracle::wrong_error_code);
    a.signature = "result for an unknown method";
    a.detail = "an unknown method was answered with a result instead of error -32601";
    a.demanded_code = -32601;
    out.anomalies.push_back(std::move(a));
  }
  // Schema of the negotiated version; the method selects the result definition (an error or a
  // malformed request's answer is judged by the envelope only).
  bool known = !p.method.empty() && !p.optional && schemas_.method(version_, p.method).has_value();
  auto v = monitor::judge_schema(schemas_, msg, version_, protocol::Sender::Server, known ? p.method : std::string());
  if (v.finding) {
    Anomaly a = base(oracle::schema);
    a.signature = v.definition.empty() ? "response" : v.definition;
    a.detail = "the response is " + v.finding->message;
    out.anomalies.push_back(std::move(a));
  }
}

}  // namespace mcpspec::fuzz
