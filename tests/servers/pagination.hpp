// Opaque cursors for the paginated lists. A cursor carries an offset plus a keyed check
// value, so a cursor this process did not hand out is recognised as invalid.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "json_text.hpp"

namespace testserver {

class CursorCodec {
 public:
  CursorCodec();  // random key per process: cursors do not survive a restart
  std::string encode(std::size_t offset) const;
  std::optional<std::size_t> decode(const std::string& cursor) const;

 private:
  std::uint64_t check(std::size_t offset) const;
  std::uint64_t key_;
};

// Offset of the page a list request asks for: 0 without a cursor. An invalid cursor is
// refused with -32602, or (invalid-cursor-accepted fault) quietly read as the first page.
std::size_t requested_offset(const json& params, const CursorCodec& codec, std::size_t total,
                             bool accept_invalid);

}  // namespace testserver
