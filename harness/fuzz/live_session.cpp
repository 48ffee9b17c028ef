#include "harness/fuzz/live_session.hpp"

#include "harness/protocol/peer_json.hpp"
#include "harness/protocol/schema_registry.hpp"
#include "harness/util/json_text.hpp"

#include <algorithm>

namespace mcpspec::fuzz {

using nlohmann::json;

namespace {
// History indexes of our own probes (initialize, liveness pings) lie far above any real history.
constexpr std::size_t kProbeBase = std::size_t{1} << 60;
constexpr std::size_t kStderrTail = 20;
constexpr std::size_t kMaxPending = 256;

// Adds what the target's output showed, unless the same misbehaviour is already waiting to be
// judged. A target flooding junk lines made one anomaly per line, and a handshake that never
// completes is judged only after --startup-timeout-ms: the list grew to hundreds of MB
// (tests/hostile/, fuzz/flood-stdout). The campaign keeps one finding per key anyway.
void add_pending(std::vector<Anomaly>& out, Anomaly a) {
  if (out.size() >= kMaxPending) return;
  for (const auto& o : out)
    if (o.key() == a.key()) return;
  out.push_back(std::move(a));
}
}  // namespace

LiveSession::LiveSession(TransportFactory make, SessionSettings settings)
    : make_(std::move(make)), settings_(std::move(settings)), tracker_(*settings_.schemas, settings_.version) {}

LiveSession::~LiveSession() { stop(); }

void LiveSession::stop() {
  if (transport_) transport_->stop();
  alive_ = false;
}

void LiveSession::clear_history() {
  history_.clear();
  history_bytes_ = 0;
  tracker_.reset();
  // History indexes start again from 0: a late refusal must not land on a new message.
  std::fill(sent_index_.begin(), sent_index_.end(), std::nullopt);
}

std::optional<std::size_t> LiveSession::index_of_send(std::uint64_t send) const {
  if (send == 0 || send > sends_ || sends_ - send >= kSendRing) return std::nullopt;
  return sent_index_[send % kSendRing];
}

void LiveSession::on_rejected(const transport::Event& ev, std::vector<Anomaly>& out) {
  // A body carrying a request id is that request's answer, refused status or not: judged as one.
  // An id-less body is the server's explanation of the refusal (HTTP-14), not a response.
  auto read = protocol::read_peer_json(ev.text);
  if (ev.message && read.status == protocol::PeerJson::Status::Ok && read.value.is_object() &&
      read.value.contains("id") && !read.value["id"].is_null()) {
    on_frame(ev.text, out);
    return;
  }
  const auto index = index_of_send(ev.send);
  if (!index) return;  // too long ago to place
  const std::string how = "HTTP " + std::to_string(ev.http_status) + (ev.text.empty() ? "" : ": " + shorten(ev.text, 200));
  if (awaited_index_ && *index == *awaited_index_) {
    awaited_done_ = true;
    awaited_result_ = nullptr;
    awaited_refused_ = how;
    if (*index >= kProbeBase) {
      tracker_.on_rejected(*index, ev.http_status, ev.text, true);
      return;  // our own initialize or ping: the caller says what that means
    }
  }
  const bool lenient =
      *index >= history_.size() || refusable_over_http(history_[*index], tracker_.version(), *settings_.schemas);
  for (auto& a : tracker_.on_rejected(*index, ev.http_status, ev.text, lenient)) out.push_back(std::move(a));
}

void LiveSession::on_gone(std::vector<Anomaly>& out, std::optional<transport::ExitStatus> status, const std::string& how) {
  if (!alive_) return;
  alive_ = false;
  death_ = "crash";
  if (!status && transport_) {
    // The output closed first; the exit status follows shortly.
    Deadline dl = Deadline::after_ms(1000);
    while (!status && !dl.passed()) {
      auto ev = transport_->receive(Deadline::after_ms(std::min(dl.remaining_ms(), 50)));
      if (ev.type == transport::Event::Type::Exited) status = ev.status;
      if (ev.type == transport::Event::Type::Stderr) {
        stderr_tail_.push_back(ev.text);
        if (stderr_tail_.size() > kStderrTail) stderr_tail_.pop_front();
      }
    }
  }
  Anomaly a;
  a.oracle = oracle::crash;
  a.method = "?";
  a.signature = status ? status->text() : "output closed";
  a.detail = "the target " + (status ? "ended (" + status->text() + ")" : how);
  a.received = a.signature;
  if (!stderr_tail_.empty()) a.received += "; last stderr: " + shorten(stderr_tail_.back(), 200);
  out.push_back(std::move(a));
}

void LiveSession::declare_hang(std::vector<Anomaly>& out, const std::string& why) {
  if (!alive_) return;
  alive_ = false;
  death_ = "hang";
  Anomaly a;
  a.oracle = oracle::hang;
  a.method = "?";
  a.signature = "unresponsive";
  a.detail = why;
  a.received = "(nothing within " + std::to_string(settings_.timeout_ms) + " ms)";
  out.push_back(std::move(a));
  if (transport_) transport_->stop();
}

void LiveSession::write(const std::string& bytes, std::vector<Anomaly>& out, std::optional<std::size_t> index) {
  if (!alive_) return;
  // Counted like the transport counts its sends (each call, even one that fails).
  sent_index_[++sends_ % kSendRing] = index;
  try {
    transport_->send(bytes, Deadline::after_ms(settings_.timeout_ms));
  } catch (const transport::TransportError& e) {
    if (auto st = transport_->exit_status()) {
      on_gone(out, st, "");
      return;
    }
    // Alive but not reading its input: it may still die of what it got; give it a moment.
    Deadline dl = Deadline::after_ms(200);
    while (alive_ && pump(dl, out)) {
    }
    if (alive_) declare_hang(out, std::string("the target stopped reading its input: ") + e.what());
  }
}

bool LiveSession::pump(Deadline deadline, std::vector<Anomaly>& out) {
  if (!transport_ || !alive_) return false;
  auto ev = transport_->receive(deadline);
  using T = transport::Event::Type;
  switch (ev.type) {
    case T::Timeout:
      return false;
    case T::Settled:  // a wake-up only; the fuzzer keeps its own deadlines
      return true;
    case T::Stderr:
      stderr_tail_.push_back(std::move(ev.text));
      if (stderr_tail_.size() > kStderrTail) stderr_tail_.pop_front();
      return true;
    case T::Oversize:
      add_pending(out, tracker_.oversize(ev.text));
      return true;
    case T::Closed:
      // A WebSocket close frame's status comes in http_status (0: the connection just ended).
      if (ev.http_status == kCloseInvalidPayload && sent_not_utf8_) {
        // RFC 6455 requires an endpoint to fail the connection, status 1007, on a text frame that
        // is not UTF-8, and we sent one: the target did what it must, the session is just over.
        alive_ = false;
        death_ = "closed 1007 (not UTF-8)";
        return true;
      }
      on_gone(out, std::nullopt, ev.http_status ? "closed the connection: " + ev.text : "closed its output");
      return true;
    case T::Exited:
      on_gone(out, ev.status, "");
      return true;
    case T::Rejected:
      on_rejected(ev, out);
      return true;
    case T::Frame:
      break;
  }
  on_frame(ev.text, out);
  return true;
}

void LiveSession::on_frame(const std::string& text, std::vector<Anomaly>& out) {
  ++frames_in_;
  auto r = tracker_.on_frame(text, Clock::now());
  for (auto& a : r.anomalies) add_pending(out, std::move(a));
  if (r.latency_us) latency_.add(*r.latency_us);
  if (r.answered && awaited_index_ && *r.answered == *awaited_index_) {
    awaited_done_ = true;
    awaited_result_ = std::move(r.result);
  }
  if (r.reply) write(r.reply->dump(), out);
}

void LiveSession::start(std::vector<Anomaly>& out) {
  tracker_.new_session();
  transport_ = make_();
  transport_->start();
  sends_ = 0;  // a new transport counts its sends from 1
  std::fill(sent_index_.begin(), sent_index_.end(), std::nullopt);
  alive_ = true;
  sent_not_utf8_ = false;
  death_.clear();
  const std::string version = settings_.version;
  json init = {{"jsonrpc", "2.0"},
               {"id", 0},
               {"method", "initialize"},
               {"params",
                {{"protocolVersion", version},
                 {"capabilities", json::object()},
                 {"clientInfo", {{"name", "mcpspec-fuzz"}, {"version", MCPSPEC_VERSION}}}}}};
  FuzzMessage im = describe_message(init, "handshake", version, *settings_.schemas);
  awaited_index_ = kProbeBase + probe_++;
  awaited_done_ = false;
  awaited_refused_.clear();
  tracker_.on_sent(im, *awaited_index_, Clock::now());
  write(im.bytes, out, awaited_index_);
  Deadline dl = Deadline::after_ms(settings_.startup_timeout_ms);
  while (alive_ && !awaited_done_ && !dl.passed()) pump(dl, out);
  if (!alive_) return;  // it died: the crash is in `out`
  if (!awaited_done_) {
    stop();
    throw transport::TransportError("the target did not answer initialize within " +
                                    std::to_string(settings_.startup_timeout_ms) + " ms");
  }
  awaited_index_.reset();
  const json& res = awaited_result_;
  if (!res.is_object()) {
    stop();
    throw transport::TransportError(awaited_refused_.empty() ? "initialize failed (the target answered with an error)"
                                                             : "initialize was refused: " + awaited_refused_);
  }
  if (res.contains("protocolVersion") && res["protocolVersion"].is_string() &&
      settings_.schemas->has_version(res["protocolVersion"].get<std::string>()))
    tracker_.set_version(res["protocolVersion"]);
  if (res.contains("capabilities") && res["capabilities"].is_object()) capabilities_ = res["capabilities"];
  write(json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump(), out);
  tracker_.initialized_sent();

  if (!settings_.list_tools || !capabilities_.contains("tools")) return;
  // tools/list goes into the history like any fuzz message: if it misbehaves, replaying it is
  // part of the reproducer.
  json cursor = nullptr;
  for (int page = 0; page < 5 && alive_; ++page) {
    json req = {{"jsonrpc", "2.0"}, {"id", "tools-" + std::to_string(page)}, {"method", "tools/list"}};
    if (!cursor.is_null()) req["params"] = {{"cursor", cursor}};
    awaited_index_ = history_.size();
    awaited_done_ = false;
    awaited_result_ = nullptr;
    send(describe_message(req, "handshake tools/list", tracker_.version(), *settings_.schemas), out);
    Deadline tl = Deadline::after_ms(settings_.timeout_ms);
    while (alive_ && !awaited_done_ && pump(tl, out)) {
    }
    awaited_index_.reset();
    if (!awaited_done_ || !awaited_result_.is_object()) break;
    if (awaited_result_.contains("tools") && awaited_result_["tools"].is_array())
      for (const auto& t : awaited_result_["tools"]) tools_.push_back(t);
    cursor = awaited_result_.value("nextCursor", json(nullptr));
    if (!cursor.is_string()) break;
  }
}

void LiveSession::send(const FuzzMessage& m, std::vector<Anomaly>& out) {
  if (!alive_) return;
  std::size_t index = history_.size();
  history_.push_back(m);
  history_bytes_ += m.bytes.size();
  if (!m.utf8) sent_not_utf8_ = true;
  tracker_.on_sent(m, index, Clock::now());
  write(m.bytes, out, index);
  if (m.cancellable && settings_.window > 1 &&
      tracker_.calls_in_flight() > std::max<std::size_t>(2, settings_.window / 4)) {
    // Tool calls may be slow by design; rather than let them fill the window, cancel the oldest,
    // as a client that gave up would (the cancellation is part of the history, so replays see it).
    if (auto old = tracker_.oldest_call()) {
      json cancel = {{"jsonrpc", "2.0"},
                     {"method", "notifications/cancelled"},
                     {"params", {{"requestId", old->id}, {"reason", "mcpspec fuzz: too many calls in flight"}}}};
      send(describe_message(cancel, "cancel (calls in flight)", tracker_.version(), *settings_.schemas), out);
    }
  }
  while (alive_ && tracker_.outstanding() >= settings_.window) {
    if (!pump(Deadline::after_ms(settings_.timeout_ms), out)) {
      settle(out);  // nothing for a whole timeout: is it still there?
      break;
    }
  }
}

bool LiveSession::settle(std::vector<Anomaly>& out) {
  if (!alive_) return false;
  json ping = {{"jsonrpc", "2.0"}, {"id", "mcpspec-ping-" + std::to_string(probe_)}, {"method", "ping"}};
  FuzzMessage pm = describe_message(ping, "liveness ping", tracker_.version(), *settings_.schemas);
  awaited_index_ = kProbeBase + probe_++;
  awaited_done_ = false;
  awaited_refused_.clear();
  tracker_.on_sent(pm, *awaited_index_, Clock::now());
  write(pm.bytes, out, awaited_index_);
  Deadline dl = Deadline::after_ms(settings_.timeout_ms);
  while (alive_ && !(awaited_done_ && tracker_.outstanding() == 0)) {
    if (!pump(dl, out)) break;
  }
  awaited_index_.reset();
  if (!alive_) return false;
  if (!awaited_done_) {
    declare_hang(out, "the target did not answer a ping within " + std::to_string(settings_.timeout_ms) + " ms");
    return false;
  }
  if (!awaited_refused_.empty()) {
    declare_hang(out, "the target refused a ping: " + awaited_refused_);
    return false;
  }
  // Alive, yet some requests are still unanswered after a whole timeout.
  for (const auto& p : tracker_.waiting_since(Clock::now())) {
    if (p.cancellable && !p.optional) {
      // A slow tool call: cancelling it is what a client does; its answer becomes optional.
      json cancel = {{"jsonrpc", "2.0"},
                     {"method", "notifications/cancelled"},
                     {"params", {{"requestId", p.id}, {"reason", "mcpspec fuzz: timed out"}}}};
      write(cancel.dump(), out);
    } else if (!p.optional && (Clock::now() - p.sent) > std::chrono::milliseconds(settings_.timeout_ms)) {
      Anomaly a;
      a.oracle = oracle::no_response;
      a.method = p.method.empty() ? "?" : p.method;
      a.signature = "unanswered";
      a.detail = "request " + shorten(compact(p.id), 80) + " (" + p.method + ") got no answer within " +
                 std::to_string(settings_.timeout_ms) + " ms, though the target still answers ping";
      a.received = "(no response)";
      if (p.index < kProbeBase) a.trigger = p.index;
      a.trigger_id = p.id;
      out.push_back(std::move(a));
    } else if (!p.optional) {
      continue;  // sent recently: still has time
    }
    tracker_.forget(p.id);
  }
  return alive_;
}

}  // namespace mcpspec::fuzz
