#pragma once
// What a recorded exchange becomes in a replay scenario: the recorded messages of the target turn
// into matchers, the recorded messages of the other side into messages to send, and the values that
// differ from one run to the next (ids the target generates, cursors, timestamps, random tokens)
// into captures or type matchers, so the replay passes against the same implementation and still
// fails on a changed answer. `mcpspec scenario from-trace` (trace_to_scenario.hpp) uses it.
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>

namespace mcpspec::proxy {

// A value that changes between runs by its nature, judged by the member name it sits under and its
// text: cursors, progress tokens and ids named so; UUIDs; ISO 8601 date-times; long hex strings;
// long token-like strings mixing letters and digits with no spaces (not URIs: "x://..." is kept).
bool is_volatile_value(const std::string& member, const nlohmann::json& value);

// A number that measures time (a member name with time, date, elapsed, duration, ...Ms, ...At).
bool is_time_member(const std::string& member);

class ReplayValues {
 public:
  // Registers every value the replayed side sends (sent_later: all values of all its messages,
  // indexed by the message position in the trace) so that a volatile value of the target is
  // captured only when the replay needs it again after the target sent it.
  void note_sent(std::size_t position, const nlohmann::json& message);

  // The matcher for a recorded message (or part) of the target at `position`: plain values match
  // exactly; volatile values become {"$capture": name} when the replayed side sends them again
  // later, else a {"$type": ...}; "_meta" members are left out but for their progress token;
  // strings holding "${" are escaped;
  // objects whose keys all start with '$' (they would read as operators) become {"$eq": ...}.
  nlohmann::json matcher(std::size_t position, const nlohmann::json& recorded, const std::string& member = "");

  // A recorded message of the replayed side made ready to send: values captured earlier become
  // "${name}" (numbers only under an id member such as progressToken or requestId: a small
  // number elsewhere is a plain value), and literal "${" is escaped.
  nlohmann::json message(const nlohmann::json& recorded, const std::string& member = "") const;

  // Captures made so far, by name (for the notes).
  std::size_t captures() const { return by_value_.size(); }

 private:
  bool sent_after(const std::string& key, std::size_t position) const;
  bool sent_before(const std::string& key, std::size_t position) const;
  std::string capture_name(const std::string& member);

  std::map<std::string, std::set<std::size_t>> sent_at_;  // compact value -> positions sent
  std::map<std::string, std::string> by_value_;           // compact value -> capture name
  std::map<std::string, int> name_count_;
};

}  // namespace mcpspec::proxy
