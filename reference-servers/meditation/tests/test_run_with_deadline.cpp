#include "run_with_deadline.hpp"

#include <catch2/catch.hpp>

#include <chrono>

using meditation::run_with_deadline;
using std::chrono::milliseconds;

TEST_CASE("a program's output and exit status are collected", "[run]") {
  auto r = run_with_deadline({"sh", "-c", "echo out; echo err >&2; exit 3"}, "/tmp", {}, milliseconds(5000));
  CHECK(r.started);
  CHECK_FALSE(r.timed_out);
  CHECK(r.exit_code == 3);
  CHECK(r.output == "out\nerr\n");
}

TEST_CASE("extra environment variables reach the program, stdin is empty", "[run]") {
  auto r = run_with_deadline({"sh", "-c", "printf %s \"$GREETING\"; cat"}, "/tmp", {{"GREETING", "hello"}}, milliseconds(5000));
  CHECK(r.exit_code == 0);
  CHECK(r.output == "hello");
}

TEST_CASE("a program past its deadline is killed with its whole group", "[run]") {
  auto start = std::chrono::steady_clock::now();
  // The child sleeper keeps the output pipe open: only killing the group ends the wait.
  auto r = run_with_deadline({"sh", "-c", "sleep 30 & sleep 30"}, "/tmp", {}, milliseconds(200));
  auto took = std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - start).count();
  CHECK(r.timed_out);
  CHECK(r.signal == 9);
  CHECK(took < 2000);
}

TEST_CASE("a program that cannot start is reported, not thrown", "[run]") {
  auto r = run_with_deadline({"/nonexistent/git"}, "/tmp", {}, milliseconds(1000));
  CHECK_FALSE(r.started);
  CHECK(r.output.find("cannot start /nonexistent/git") != std::string::npos);
  CHECK_FALSE(run_with_deadline({}, "/tmp", {}, milliseconds(1000)).started);
}

TEST_CASE("output beyond the cap keeps its end", "[run]") {
  auto r = run_with_deadline({"sh", "-c", "head -c 50000 /dev/zero | tr '\\0' a; echo END"}, "/tmp", {}, milliseconds(5000), 100);
  CHECK(r.output.size() == 100);
  CHECK(r.output.substr(96) == "END\n");
}
