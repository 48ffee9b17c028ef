#include "mcpref/atomic_file.hpp"

#include "temp_dir.hpp"

#include <catch2/catch.hpp>

#include <csignal>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace mcpref;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::size_t entries(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

}  // namespace

TEST_CASE("atomic write replaces content and leaves no temp file", "[common][atomic]") {
  TempDir dir;
  fs::path f = dir.path() / "spec.md";
  write_file_atomic(f, "first");
  CHECK(slurp(f) == "first");
  ::chmod(f.c_str(), 0600);
  write_file_atomic(f, "second");
  CHECK(slurp(f) == "second");
  struct stat st {};
  REQUIRE(::stat(f.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);  // permission bits survive the replacement
  CHECK(entries(dir.path()) == 1);
}

TEST_CASE("a failure before commit never replaces the target", "[common][atomic]") {
  TempDir dir;
  fs::path f = dir.path() / "spec.md";
  write_file_atomic(f, "original");
  fs::path seen;
  auto failing = [&](const fs::path& temp) {
    seen = temp;
    CHECK(slurp(temp) == "replacement");  // fully written before the commit point
    throw std::runtime_error("simulated crash");
  };
  CHECK_THROWS_WITH(write_file_atomic(f, "replacement", failing), "simulated crash");
  CHECK(slurp(f) == "original");
  CHECK_FALSE(fs::exists(seen));
  CHECK(entries(dir.path()) == 1);
  CHECK(is_temp_file_name(seen.filename().string()));
  CHECK_FALSE(is_temp_file_name("spec.md"));
}

TEST_CASE("atomic write into a missing directory names the path", "[common][atomic]") {
  TempDir dir;
  fs::path f = dir.path() / "no-such-dir" / "x.md";
  try {
    write_file_atomic(f, "x");
    FAIL("expected an exception");
  } catch (const FileError& e) {
    CHECK_THAT(e.what(), Catch::Contains("no-such-dir"));
  }
}

TEST_CASE("exclusive create never overwrites", "[common][atomic]") {
  TempDir dir;
  fs::path f = dir.path() / "new.md";
  CHECK(create_file_atomic(f, "one"));
  CHECK_FALSE(create_file_atomic(f, "two"));
  CHECK(slurp(f) == "one");
  // Lost race: the target appears between the check and the commit.
  fs::path g = dir.path() / "raced.md";
  CHECK_FALSE(create_file_atomic(g, "mine", [&](const fs::path&) { write_file_atomic(g, "theirs"); }));
  CHECK(slurp(g) == "theirs");
  CHECK(entries(dir.path()) == 2);
}

TEST_CASE("durable move refuses to replace", "[common][atomic]") {
  TempDir dir;
  fs::create_directory(dir.path() / "archive");
  fs::path a = dir.path() / "a.md", b = dir.path() / "archive" / "a.md";
  write_file_atomic(a, "A");
  move_file_durable(a, b);
  CHECK_FALSE(fs::exists(a));
  CHECK(slurp(b) == "A");
  write_file_atomic(a, "A2");
  CHECK_THROWS_AS(move_file_durable(a, b), FileError);
  CHECK(slurp(a) == "A2");
  CHECK(slurp(b) == "A");
}

TEST_CASE("limited read refuses symlinks and oversize files", "[common][atomic]") {
  TempDir dir;
  fs::path f = dir.path() / "f";
  write_file_atomic(f, std::string(100, 'z'));
  CHECK(read_file_limited(f, 100).size() == 100);
  CHECK_THROWS_WITH(read_file_limited(f, 99), Catch::Contains("too large"));
  fs::create_symlink(f, dir.path() / "link");
  CHECK_THROWS_WITH(read_file_limited(dir.path() / "link", 1000), Catch::Contains("symbolic link"));
  CHECK_THROWS_AS(read_file_limited(dir.path() / "missing", 1000), FileError);
}

TEST_CASE("a writer killed at random moments always leaves a whole file", "[common][atomic][slow]") {
  TempDir dir;
  fs::path f = dir.path() / "victim.md";
  // Two recognisable versions, large enough that a write takes a while.
  const std::string a(256 * 1024, 'a'), b(256 * 1024, 'b');
  write_file_atomic(f, a);
  for (int round = 0; round < 20; ++round) {
    pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      for (int i = 0;; ++i) write_file_atomic(f, (i % 2) ? a : b);
    }
    ::usleep(static_cast<useconds_t>(2000 + (round * 1777) % 20000));
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    std::string now = slurp(f);
    bool whole = now == a || now == b;
    CHECK(whole);
    // Clean up temp files a killed writer may leave behind (they never replace the target).
    for (auto& e : fs::directory_iterator(dir.path())) {
      if (is_temp_file_name(e.path().filename().string())) fs::remove(e.path());
    }
  }
}
