#include "pagination.hpp"

#include <charconv>
#include <cstdio>
#include <random>

#include "outcome.hpp"

namespace testserver {

CursorCodec::CursorCodec() {
  std::random_device rd;
  key_ = (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

std::uint64_t CursorCodec::check(std::size_t offset) const {
  // splitmix64 of key^offset: not cryptographic, only has to make guessing pointless.
  std::uint64_t z = key_ ^ (offset * 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::string CursorCodec::encode(std::size_t offset) const {
  char buf[64];
  std::snprintf(buf, sizeof buf, "pg%zu-%016llx", offset,
                static_cast<unsigned long long>(check(offset)));
  return buf;
}

std::optional<std::size_t> CursorCodec::decode(const std::string& cursor) const {
  if (cursor.size() < 4 || cursor.size() > 60 || cursor.compare(0, 2, "pg") != 0) return std::nullopt;
  const char* p = cursor.data() + 2;
  const char* end = cursor.data() + cursor.size();
  std::size_t offset = 0;
  auto r = std::from_chars(p, end, offset);
  if (r.ec != std::errc() || r.ptr == end || *r.ptr != '-') return std::nullopt;
  if (encode(offset) != cursor) return std::nullopt;
  return offset;
}

std::size_t requested_offset(const json& params, const CursorCodec& codec, std::size_t total,
                             bool accept_invalid) {
  const std::string* cursor = optional_string(params, "cursor", "params");
  if (cursor == nullptr) return 0;
  auto offset = codec.decode(*cursor);
  // We only hand out cursors for offsets inside the list, so anything else is not ours.
  if (offset && *offset > 0 && *offset < total) return *offset;
  if (accept_invalid) return 0;
  std::string shown = cursor->size() > 80 ? cursor->substr(0, 80) + "..." : *cursor;
  fail(rpc_code::invalid_params, "invalid cursor '" + shown + "': use a nextCursor from this server",
       {{"cursor", *cursor}});
}

}  // namespace testserver
