#include "harness/fuzz/minimizer.hpp"

#include "harness/protocol/schema_registry.hpp"

#include <algorithm>

namespace mcpspec::fuzz {

using nlohmann::json;

Replayer session_replayer(TransportFactory make, SessionSettings settings) {
  settings.list_tools = false;
  return [make, settings](const std::vector<FuzzMessage>& messages) {
    std::vector<Anomaly> seen;
    LiveSession s(make, settings);
    try {
      s.start(seen);
    } catch (const transport::TransportError&) {
      return seen;
    }
    for (const auto& m : messages) {
      if (!s.alive()) break;
      s.send(m, seen);
    }
    if (s.alive()) s.settle(seen);
    // Output that trails the ping's answer (a second answer, a late banner) belongs to the replay too.
    if (s.alive()) s.settle(seen);
    s.stop();
    return seen;
  };
}

namespace {

class Search {
 public:
  Search(const Anomaly& target, const Replayer& replay, const MinimizeBudget& budget)
      : target_(target), replay_(replay), budget_(budget), deadline_(Deadline::after_ms(budget.max_ms).earliest(budget.until)) {}

  bool exhausted() const { return replays_ >= budget_.max_replays || deadline_.passed(); }
  int replays() const { return replays_; }
  const Anomaly& last_hit() const { return hit_; }

  bool reproduces(const std::vector<FuzzMessage>& seq) {
    if (exhausted()) return false;
    ++replays_;
    for (const auto& a : replay_(seq))
      if (a.same_as(target_)) {
        hit_ = a;
        return true;
      }
    return false;
  }

 private:
  const Anomaly& target_;
  const Replayer& replay_;
  MinimizeBudget budget_;
  Deadline deadline_;
  int replays_ = 0;
  Anomaly hit_;
};

std::vector<FuzzMessage> slice(const std::vector<FuzzMessage>& v, std::size_t from, std::size_t to) {
  return std::vector<FuzzMessage>(v.begin() + static_cast<long>(from), v.begin() + static_cast<long>(to));
}

// Classic ddmin: try each chunk alone, then each complement, refining the granularity.
std::vector<FuzzMessage> ddmin(std::vector<FuzzMessage> seq, Search& s) {
  std::size_t n = 2;
  while (seq.size() >= 2 && !s.exhausted()) {
    std::size_t chunk = (seq.size() + n - 1) / n;
    bool reduced = false;
    for (std::size_t i = 0; i * chunk < seq.size() && !reduced; ++i) {
      auto sub = slice(seq, i * chunk, std::min(seq.size(), (i + 1) * chunk));
      if (s.reproduces(sub)) {
        seq = std::move(sub);
        n = 2;
        reduced = true;
      }
    }
    for (std::size_t i = 0; i * chunk < seq.size() && !reduced && n > 2; ++i) {
      std::vector<FuzzMessage> comp = slice(seq, 0, i * chunk);
      auto tail = slice(seq, std::min(seq.size(), (i + 1) * chunk), seq.size());
      comp.insert(comp.end(), tail.begin(), tail.end());
      if (s.reproduces(comp)) {
        seq = std::move(comp);
        n = std::max<std::size_t>(n - 1, 2);
        reduced = true;
      }
    }
    if (!reduced) {
      if (n >= seq.size()) break;
      n = std::min(seq.size(), n * 2);
    }
  }
  return seq;
}

// Smaller variants of one JSON value, most promising first: members dropped, strings and arrays
// halved, a deep chain cut in the middle.
void shrink_candidates(const json& v, const std::string& ptr, std::vector<std::pair<std::string, json>>& out, int depth) {
  if (out.size() > 64 || depth > 8) return;
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (depth == 0 && (it.key() == "jsonrpc" || it.key() == "method" || it.key() == "id")) continue;
      json smaller = v;
      smaller.erase(it.key());
      out.emplace_back(ptr, std::move(smaller));
    }
    for (auto it = v.begin(); it != v.end(); ++it) {
      std::string esc;
      for (char c : it.key()) esc += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
      shrink_candidates(*it, ptr + "/" + esc, out, depth + 1);
    }
  } else if (v.is_array() && v.size() > 1) {
    out.emplace_back(ptr, json(v.begin(), v.begin() + static_cast<long>(v.size() / 2)));
    out.emplace_back(ptr, json::array({v[0]}));
  } else if (v.is_string() && v.get_ref<const std::string&>().size() > 8) {
    const auto& s = v.get_ref<const std::string&>();
    out.emplace_back(ptr, json(s.substr(0, s.size() / 2)));
  }
  if ((v.is_array() && v.size() == 1) || (v.is_object() && v.size() == 1)) {
    // A chain of single-member containers: replace it by the value a quarter of the way down.
    std::size_t len = 0;
    const json* cur = &v;
    std::vector<const json*> chain;
    while ((cur->is_array() || cur->is_object()) && cur->size() == 1 && len < 100000) {
      chain.push_back(cur);
      cur = cur->is_array() ? &(*cur)[0] : &cur->begin().value();
      ++len;
    }
    if (len >= 4) out.emplace_back(ptr, *chain[len / 4]);
  }
}

bool set_at(json& root, const std::string& ptr, json value) {
  try {
    if (ptr.empty()) root = std::move(value);
    else root[json::json_pointer(ptr)] = std::move(value);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

Minimized minimize(const std::vector<FuzzMessage>& history, const Anomaly& target, const Replayer& replay,
                   const MinimizeBudget& budget, const std::string& version, const protocol::SchemaRegistry& schemas) {
  Minimized out;
  out.anomaly = target;
  Search s(target, replay, budget);
  std::vector<FuzzMessage> seq;
  // Cheap guesses first: the handshake alone, the message the answer belonged to, the last one.
  if (s.reproduces({})) {
    out.reproduced = true;
  } else if (target.trigger && *target.trigger < history.size() && s.reproduces({history[*target.trigger]})) {
    seq = {history[*target.trigger]};
    out.reproduced = true;
  } else if (!history.empty() && s.reproduces({history.back()})) {
    seq = {history.back()};
    out.reproduced = true;
  } else if (s.reproduces(history)) {
    out.reproduced = true;
    seq = ddmin(history, s);
  } else {
    seq = history;  // not reproducible in a fresh process: keep everything as evidence
  }
  if (out.reproduced) {
    // Shrink each message, last (most likely the trigger) first.
    for (std::size_t i = seq.size(); i-- > 0 && !s.exhausted();) {
      json msg = json::parse(seq[i].bytes, nullptr, false);
      if (msg.is_discarded()) {
        // Not JSON: try shorter prefixes of the bytes.
        while (seq[i].bytes.size() > 16 && !s.exhausted()) {
          auto trial = seq;
          trial[i] = describe_message(seq[i].bytes.substr(0, seq[i].bytes.size() / 2), seq[i].origin, version, schemas);
          if (!s.reproduces(trial)) break;
          seq = std::move(trial);
        }
        continue;
      }
      for (bool progress = true; progress && !s.exhausted();) {
        progress = false;
        std::vector<std::pair<std::string, json>> cands;
        shrink_candidates(msg, "", cands, 0);
        for (auto& [ptr, smaller] : cands) {
          if (s.exhausted()) break;
          json trial_msg = msg;
          if (!set_at(trial_msg, ptr, smaller)) continue;
          auto trial = seq;
          trial[i] = describe_message(trial_msg, seq[i].origin, version, schemas);
          if (s.reproduces(trial)) {
            msg = std::move(trial_msg);
            seq = std::move(trial);
            progress = true;
            break;
          }
        }
      }
    }
    out.anomaly = s.last_hit();
    if (out.anomaly.method == "?" && out.anomaly.trigger && *out.anomaly.trigger < seq.size() &&
        !seq[*out.anomaly.trigger].method.empty())
      out.anomaly.method = seq[*out.anomaly.trigger].method;
    if (out.anomaly.method == "?") {
      // The method of the message that set it off: the last one left (or the handshake).
      out.anomaly.method = seq.empty() ? "handshake" : (seq.back().method.empty() ? "(unreadable)" : seq.back().method);
    }
  }
  out.messages = std::move(seq);
  out.replays = s.replays();
  return out;
}

}  // namespace mcpspec::fuzz
