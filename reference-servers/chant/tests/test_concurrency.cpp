// The project lock, exercised through SpecStore by threads that each act like a separate
// chant process (each update opens and locks .chant/.lock itself).
#include "test_support.hpp"

#include "spec_store.hpp"
#include "tool_error.hpp"

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <thread>

using namespace chant_test;

TEST_CASE("threads appending output to one spec lose nothing", "[chant][concurrency]") {
  Project p;
  p.add_spec("t-1", "Shared", "in_progress");
  constexpr int threads = 4, each = 25;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      chant::SpecStore store(p.paths());
      for (int i = 0; i < each; ++i) {
        store.update("t-1", [&](chant::Spec& s) { chant::append_spec_output(s, fmt::format("t{}-{}", t, i)); });
      }
    });
  }
  for (auto& th : pool) th.join();
  std::string body = chant::SpecStore(p.paths()).load("t-1").doc.body;
  for (int t = 0; t < threads; ++t) {
    for (int i = 0; i < each; ++i) {
      INFO(fmt::format("t{}-{}", t, i));
      CHECK(body.find(fmt::format("\nt{}-{}\n", t, i)) != std::string::npos);
    }
  }
}

TEST_CASE("an update waiting too long for the lock fails cleanly", "[chant][concurrency]") {
  Project p;
  p.add_spec("t-2", "Locked", "pending");
  auto held = mcpref::FileLock::acquire(p.paths().lock, std::chrono::seconds(1));
  std::string before = slurp(p.spec_path("t-2"));
  std::thread other([&] {
    chant::SpecStore store(p.paths(), std::chrono::milliseconds(50));
    CHECK_THROWS_WITH(store.update("t-2", [](chant::Spec&) {}),
                      Catch::StartsWith("Project is busy: timed out"));
  });
  other.join();
  CHECK(slurp(p.spec_path("t-2")) == before);
}
