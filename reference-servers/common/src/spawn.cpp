#include "mcpref/spawn.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>

extern char** environ;

namespace mcpref {

pid_t spawn_in_new_group(const SpawnSpec& spec) {
  if (spec.argv.empty()) throw SpawnError("cannot start a program: no program given", EINVAL);
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string kv(*e);
    if (!spec.extra_env.count(kv.substr(0, kv.find('=')))) env.push_back(std::move(kv));
  }
  for (const auto& [k, v] : spec.extra_env) env.push_back(k + "=" + v);
  std::vector<std::string> args = spec.argv;
  std::vector<char*> envp, argv;
  for (auto& s : env) envp.push_back(s.data());
  envp.push_back(nullptr);
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attr);
  int target = 0;
  for (int fd : {spec.in, spec.out, spec.err}) {
    if (fd >= 0) posix_spawn_file_actions_adddup2(&actions, fd, target);
    else posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0);
    ++target;
  }
  if (!spec.workdir.empty()) posix_spawn_file_actions_addchdir_np(&actions, spec.workdir.c_str());
  sigset_t defaults, empty;
  sigemptyset(&defaults);
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD}) sigaddset(&defaults, sig);
  sigemptyset(&empty);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &empty);
  pid_t pid = -1;
  int rc = ::posix_spawnp(&pid, argv[0], &actions, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) throw SpawnError("cannot start " + spec.argv[0] + ": " + std::strerror(rc), rc);
  return pid;
}

}  // namespace mcpref
