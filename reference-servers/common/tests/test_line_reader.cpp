#include "mcpref/line_reader.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <thread>
#include <unistd.h>

using mcpref::LineReader;

namespace {

// Feeds `input` through a pipe from a separate thread (a pipe buffer is smaller than the
// larger inputs) and collects every reader result.
std::vector<LineReader::Result> read_all(const std::string& input, std::size_t max) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  std::thread writer([&] {
    std::size_t done = 0;
    while (done < input.size()) {
      ssize_t n = ::write(fds[1], input.data() + done, input.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    ::close(fds[1]);
  });
  LineReader reader(fds[0], max);
  std::vector<LineReader::Result> out;
  for (;;) {
    auto r = reader.next();
    if (r.status == LineReader::Status::Eof) break;
    out.push_back(r);
    if (r.status == LineReader::Status::Error) break;
  }
  writer.join();
  ::close(fds[0]);
  return out;
}

}  // namespace

TEST_CASE("line reader splits lines and strips CR", "[common][line_reader]") {
  auto r = read_all("one\r\ntwo\n\nthree", 100);
  REQUIRE(r.size() == 4);
  CHECK(r[0].line == "one");
  CHECK(r[1].line == "two");
  CHECK(r[2].line.empty());
  CHECK(r[3].line == "three");  // no final newline: still delivered
  for (auto& x : r) CHECK(x.status == LineReader::Status::Line);
}

TEST_CASE("line reader accepts a line exactly at the limit", "[common][line_reader]") {
  auto r = read_all(std::string(10, 'a') + "\n", 10);
  REQUIRE(r.size() == 1);
  CHECK(r[0].status == LineReader::Status::Line);
  CHECK(r[0].line.size() == 10);
}

TEST_CASE("line reader skips an oversize line and resumes after it", "[common][line_reader]") {
  std::string big(1000000, 'x');
  auto r = read_all("ok\n" + big + "\nafter\n", 4096);
  REQUIRE(r.size() == 3);
  CHECK(r[0].line == "ok");
  CHECK(r[1].status == LineReader::Status::TooLong);
  CHECK(r[1].discarded == big.size());
  CHECK(r[2].status == LineReader::Status::Line);
  CHECK(r[2].line == "after");
}

TEST_CASE("line reader reports an oversize unterminated tail once", "[common][line_reader]") {
  auto r = read_all("a\n" + std::string(300000, 'y'), 1000);
  REQUIRE(r.size() == 2);
  CHECK(r[1].status == LineReader::Status::TooLong);
  CHECK(r[1].discarded == 300000);
}

TEST_CASE("line reader reports read errors", "[common][line_reader]") {
  LineReader reader(-1, 10);
  auto r = reader.next();
  CHECK(r.status == LineReader::Status::Error);
  CHECK_THAT(r.error, Catch::Contains("read failed"));
}

TEST_CASE("a reader waiting for input stops when its cancel fd becomes readable", "[line_reader]") {
  int data[2], cancel[2];
  REQUIRE(::pipe(data) == 0);
  REQUIRE(::pipe(cancel) == 0);
  REQUIRE(::write(data[1], "one\npart", 8) == 8);
  LineReader reader(data[0], 100, cancel[0]);
  auto first = reader.next();
  CHECK(first.status == LineReader::Status::Line);
  CHECK(first.line == "one");
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    char b = 1;
    (void)!::write(cancel[1], &b, 1);
  });
  auto second = reader.next();  // blocks on the unfinished "part" until cancelled
  canceller.join();
  CHECK(second.status == LineReader::Status::Error);
  CHECK(second.error == "cancelled");
  for (int fd : {data[0], data[1], cancel[0], cancel[1]}) ::close(fd);
}
