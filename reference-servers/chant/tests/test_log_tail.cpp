#include "log_tail.hpp"

#include "test_support.hpp"

#include "mcpref/atomic_file.hpp"

#include <catch2/catch.hpp>

#include <fmt/format.h>

using namespace chant_test;

TEST_CASE("log tail: last lines of small and large files", "[chant][log]") {
  TempDir d;
  fs::path f = d.path() / "x.log";
  write_text(f, "a\nb\nc\n");
  CHECK(chant::read_log_tail(f, 2).text == "b\nc");
  CHECK(chant::read_log_tail(f, 10).text == "a\nb\nc");
  CHECK(chant::read_log_tail(f, 10).lines == 3);
  write_text(f, "no newline at end");
  CHECK(chant::read_log_tail(f, 1).text == "no newline at end");
  write_text(f, "");
  CHECK(chant::read_log_tail(f, 5).text.empty());
  write_text(f, "\n\nx\n");
  CHECK(chant::read_log_tail(f, 3).text == "\n\nx");

  // Many chunks: lines cross the 64 KiB read boundaries.
  std::string big;
  for (int i = 0; i < 50000; ++i) big += fmt::format("entry number {}\n", i);
  write_text(f, big);
  auto t = chant::read_log_tail(f, 3);
  CHECK(t.text == "entry number 49997\nentry number 49998\nentry number 49999");
  CHECK_FALSE(t.truncated);
  auto all = chant::read_log_tail(f, 1000000);
  CHECK(all.text + "\n" == big);
  CHECK(all.lines == 50000);
}

TEST_CASE("log tail: byte cap keeps whole lines and says so", "[chant][log]") {
  TempDir d;
  fs::path f = d.path() / "x.log";
  std::string big;
  for (int i = 0; i < 1000; ++i) big += fmt::format("{:04}-{}\n", i, std::string(95, 'y'));
  write_text(f, big);
  auto t = chant::read_log_tail(f, 1000, 10000);
  CHECK(t.truncated);
  CHECK(t.text.size() <= 10000);
  CHECK(t.text.substr(t.text.size() - 100) == "0999-" + std::string(95, 'y'));
  CHECK(t.text.find('\n') == 100);  // starts on a line boundary
}

TEST_CASE("log tail refuses symlinks", "[chant][log][security]") {
  TempDir d;
  write_text(d.path() / "secret", "s\n");
  fs::create_symlink(d.path() / "secret", d.path() / "x.log");
  CHECK_THROWS_AS(chant::read_log_tail(d.path() / "x.log", 5), mcpref::FileError);
}
