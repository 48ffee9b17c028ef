// Starting a child process the way every reference system does: in a process group of its own
// (so the whole group can be signalled and reaped), with default signal dispositions and nothing
// blocked, whatever the parent ignores or blocks.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <sys/types.h>
#include <vector>

namespace mcpref {

struct SpawnSpec {
  std::vector<std::string> argv;  // argv[0] is searched on PATH unless it contains a '/'
  std::string workdir;            // empty: ours
  // The child's stdin, stdout, stderr: -1 for /dev/null. Any descriptor may appear twice
  // (stdout and stderr into one pipe).
  int in = -1, out = -1, err = -1;
  std::map<std::string, std::string> extra_env;  // added to (or replacing in) our environment
};

class SpawnError : public std::runtime_error {
 public:
  SpawnError(const std::string& what, int error_number) : std::runtime_error(what), error_number_(error_number) {}
  int error_number() const { return error_number_; }  // errno-style: ENOENT, EACCES ...

 private:
  int error_number_;
};

// Returns the child's pid (also its process group id). Throws SpawnError
// "cannot start <argv[0]>: <reason>" when it cannot be started.
pid_t spawn_in_new_group(const SpawnSpec& spec);

}  // namespace mcpref
