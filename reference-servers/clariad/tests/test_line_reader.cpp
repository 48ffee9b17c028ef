// Line framing from a file descriptor, including the size cap.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>
#include <thread>

#include "line_reader.hpp"

using namespace clariad;

namespace {

// Feeds `data` through a pipe from a writer thread (large inputs would block a single thread).
struct PipeFeed {
  int fds[2]{-1, -1};
  std::thread writer;
  explicit PipeFeed(std::string data) {
    REQUIRE(::pipe(fds) == 0);
    writer = std::thread([fd = fds[1], data = std::move(data)] {
      std::size_t done = 0;
      while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n <= 0) break;
        done += static_cast<std::size_t>(n);
      }
      ::close(fd);
    });
  }
  ~PipeFeed() {
    writer.join();
    ::close(fds[0]);
  }
};

}  // namespace

TEST_CASE("lines are split on newline, CR and a missing final newline are handled", "[reader]") {
  PipeFeed feed("one\r\ntwo\n\nthree");
  LineReader reader(feed.fds[0], 100);
  auto a = reader.next();
  REQUIRE(a);
  CHECK(a->text == "one");
  CHECK(reader.next()->text == "two");
  CHECK(reader.next()->text.empty());
  auto last = reader.next();
  REQUIRE(last);
  CHECK(last->text == "three");
  CHECK_FALSE(reader.next());
  CHECK_FALSE(reader.failed());
}

TEST_CASE("an overlong line is dropped and reported, the next line is intact", "[reader]") {
  const std::string huge(300000, 'x');
  PipeFeed feed(huge + "\nafter\n" + std::string(100, 'y') + "\n");
  LineReader reader(feed.fds[0], 100);
  auto big = reader.next();
  REQUIRE(big);
  CHECK(big->too_long);
  CHECK(big->text.empty());
  CHECK(big->length == huge.size());
  auto after = reader.next();
  REQUIRE(after);
  CHECK_FALSE(after->too_long);
  CHECK(after->text == "after");
  auto exact = reader.next();
  REQUIRE(exact);
  CHECK_FALSE(exact->too_long);  // exactly the limit is accepted
  CHECK(exact->text.size() == 100);
  CHECK_FALSE(reader.next());
}

TEST_CASE("an overlong final line without newline is still reported", "[reader]") {
  PipeFeed feed(std::string(1000, 'z'));
  LineReader reader(feed.fds[0], 100);
  auto line = reader.next();
  REQUIRE(line);
  CHECK(line->too_long);
  CHECK(line->length == 1000);
  CHECK_FALSE(reader.next());
}
