#pragma once
// Conversation context keyed by conversation_id, as the Clariad document describes it
// (retrieve before a tool runs, update with its result after). The document says nothing
// about persistence, so context lives in memory only and is lost when the server exits.
// Both dimensions are bounded: least-recently-used conversations are evicted beyond
// max_conversations, and the oldest entries of a conversation beyond max_bytes.
#include <cstddef>
#include <deque>
#include <list>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "json_types.hpp"

namespace clariad {

struct ContextEntry {
  std::string tool;    // which tool produced it
  std::string output;  // the Markdown it returned
  Json facts;          // structured parts later tools read (so nobody re-parses Markdown)

  std::size_t bytes() const;
};

struct ConversationLimits {
  std::size_t max_conversations = 64;
  std::size_t max_bytes = 256 * 1024;
};

class ConversationStore {
 public:
  explicit ConversationStore(ConversationLimits limits);

  // Entries of a conversation, oldest first (empty for an unknown id). Marks it recently used.
  std::vector<ContextEntry> entries(const std::string& id);

  // Adds an entry, then evicts: while this conversation is over max_bytes, its oldest entry
  // that a later entry of the same tool supersedes, else its oldest entry (the newest entry
  // always stays); while there are more than max_conversations, the least recently used one.
  void append(const std::string& id, ContextEntry entry);

  // Observers that do not count as use.
  bool contains(const std::string& id) const;
  std::size_t conversation_count() const;
  std::size_t bytes_of(const std::string& id) const;
  std::size_t entry_count(const std::string& id) const;

  const ConversationLimits& limits() const { return limits_; }

 private:
  struct Conversation {
    std::deque<ContextEntry> entries;
    std::size_t bytes = 0;
    std::list<std::string>::iterator lru_position;
  };

  void touch(Conversation& conversation, const std::string& id);

  ConversationLimits limits_;
  mutable std::mutex mutex_;
  std::list<std::string> lru_;  // front = most recently used
  std::unordered_map<std::string, Conversation> conversations_;
};

}  // namespace clariad
