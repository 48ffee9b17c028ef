#pragma once
// A cheap scan run before parsing, so that a line of a million '[' is refused with a clear
// error instead of being handed to the parser and to recursive code (dump, our own walkers).
#include <cstddef>
#include <string_view>

namespace clariad {

// True when arrays/objects in `text` nest deeper than `limit` levels. Brackets inside JSON
// strings do not count. Malformed text is not judged here; the parser reports that.
bool nesting_exceeds(std::string_view text, std::size_t limit);

}  // namespace clariad
