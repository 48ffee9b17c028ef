#include "mcpref/atomic_file.hpp"
#include "mcpref/file_lock.hpp"

#include "temp_dir.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace mcpref;
using namespace std::chrono_literals;

namespace {

int read_counter(const fs::path& p) {
  std::ifstream in(p);
  int n = 0;
  in >> n;
  return n;
}

// One read-modify-write of the counter file, with a pause in the middle that would lose
// updates reliably if the lock did not exclude the other writers.
void bump(const fs::path& lock, const fs::path& counter) {
  auto held = FileLock::acquire(lock, 10s);
  int n = read_counter(counter);
  std::this_thread::yield();
  write_file_atomic(counter, std::to_string(n + 1));
}

}  // namespace

TEST_CASE("the lock serialises threads: no lost update", "[common][lock]") {
  TempDir dir;
  fs::path lock = dir.path() / ".lock", counter = dir.path() / "counter";
  write_file_atomic(counter, "0");
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) bump(lock, counter);
    });
  }
  for (auto& t : threads) t.join();
  CHECK(read_counter(counter) == 200);
}

TEST_CASE("the lock serialises processes: no lost update", "[common][lock]") {
  TempDir dir;
  fs::path lock = dir.path() / ".lock", counter = dir.path() / "counter";
  write_file_atomic(counter, "0");
  std::vector<pid_t> kids;
  for (int p = 0; p < 3; ++p) {
    pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      try {
        for (int i = 0; i < 40; ++i) bump(lock, counter);
      } catch (...) {
        ::_exit(2);
      }
      ::_exit(0);
    }
    kids.push_back(child);
  }
  for (pid_t k : kids) {
    int status = 0;
    ::waitpid(k, &status, 0);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
  CHECK(read_counter(counter) == 120);
}

TEST_CASE("waiting for a held lock times out with a clear error", "[common][lock]") {
  TempDir dir;
  fs::path lock = dir.path() / ".lock";
  auto first = FileLock::acquire(lock, 1s);
  CHECK(first.held());
  std::thread other([&] {
    CHECK_THROWS_WITH(FileLock::acquire(lock, 100ms),
                      Catch::Contains("timed out") && Catch::Contains(".lock"));
  });
  other.join();
  first.release();
  CHECK_FALSE(first.held());
  auto again = FileLock::acquire(lock, 100ms);
  CHECK(again.held());
}

TEST_CASE("an unopenable lock file is reported by path", "[common][lock]") {
  CHECK_THROWS_WITH(FileLock::acquire("/nonexistent-dir-xyz/.lock", 10ms),
                    Catch::Contains("/nonexistent-dir-xyz/.lock"));
}
