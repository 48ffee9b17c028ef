#include "conversation_store.hpp"

#include <algorithm>
#include <iterator>

namespace clariad {

std::size_t ContextEntry::bytes() const { return tool.size() + output.size() + facts.dump().size(); }

ConversationStore::ConversationStore(ConversationLimits limits) : limits_(limits) {
  if (limits_.max_conversations == 0) limits_.max_conversations = 1;
}

void ConversationStore::touch(Conversation& conversation, const std::string& id) {
  lru_.erase(conversation.lru_position);
  lru_.push_front(id);
  conversation.lru_position = lru_.begin();
}

std::vector<ContextEntry> ConversationStore::entries(const std::string& id) {
  std::lock_guard lock(mutex_);
  const auto it = conversations_.find(id);
  if (it == conversations_.end()) return {};
  touch(it->second, id);
  return {it->second.entries.begin(), it->second.entries.end()};
}

void ConversationStore::append(const std::string& id, ContextEntry entry) {
  std::lock_guard lock(mutex_);
  auto it = conversations_.find(id);
  if (it == conversations_.end()) {
    lru_.push_front(id);
    it = conversations_.emplace(id, Conversation{}).first;
    it->second.lru_position = lru_.begin();
  } else {
    touch(it->second, id);
  }
  Conversation& conversation = it->second;
  conversation.bytes += entry.bytes();
  conversation.entries.push_back(std::move(entry));
  auto& entries = conversation.entries;
  while (conversation.bytes > limits_.max_bytes && entries.size() > 1) {
    // Superseded results go first (an older vision when a newer one exists), so that the latest
    // vision survives a series of architecture calls; only then the oldest of what remains.
    auto victim = entries.begin();
    for (auto it = entries.begin(); it != entries.end(); ++it) {
      const bool superseded = std::any_of(std::next(it), entries.end(), [&](const ContextEntry& later) {
        return later.tool == it->tool;
      });
      if (superseded) {
        victim = it;
        break;
      }
    }
    conversation.bytes -= victim->bytes();
    entries.erase(victim);
  }

  while (conversations_.size() > limits_.max_conversations) {
    const std::string victim = lru_.back();
    lru_.pop_back();
    conversations_.erase(victim);
  }
}

bool ConversationStore::contains(const std::string& id) const {
  std::lock_guard lock(mutex_);
  return conversations_.count(id) != 0;
}

std::size_t ConversationStore::conversation_count() const {
  std::lock_guard lock(mutex_);
  return conversations_.size();
}

std::size_t ConversationStore::bytes_of(const std::string& id) const {
  std::lock_guard lock(mutex_);
  const auto it = conversations_.find(id);
  return it == conversations_.end() ? 0 : it->second.bytes;
}

std::size_t ConversationStore::entry_count(const std::string& id) const {
  std::lock_guard lock(mutex_);
  const auto it = conversations_.find(id);
  return it == conversations_.end() ? 0 : it->second.entries.size();
}

}  // namespace clariad
