// `tamamo-x-mcp init`: writes tamamo-x.config.json in a folder, importing the servers of the
// .mcp.json found there.
#pragma once

#include <filesystem>
#include <iosfwd>

namespace tamamo {

// Returns the exit status: 0 written, 1 refused or failed (the reason on `err`). An existing
// configuration is kept unless `force`.
int run_init(const std::filesystem::path& dir, bool force, std::ostream& out, std::ostream& err);

}  // namespace tamamo
