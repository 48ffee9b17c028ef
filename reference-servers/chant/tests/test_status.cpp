#include "spec_status.hpp"

#include <catch2/catch.hpp>

using namespace chant;

TEST_CASE("update accepts exactly the four documented statuses", "[chant][status]") {
  for (const char* ok : {"pending", "in_progress", "completed", "failed"}) {
    INFO(ok);
    REQUIRE(parse_update_status(ok).has_value());
    CHECK(to_string(*parse_update_status(ok)) == ok);
  }
  for (const char* bad : {"cancelled", "blocked", "ready", "needs_attention", "Pending", "done", "",
                          "in-progress", " pending"}) {
    INFO(bad);
    CHECK_FALSE(parse_update_status(bad).has_value());
  }
}

TEST_CASE("stored statuses and filters", "[chant][status]") {
  CHECK(parse_stored_status("ready") == Status::Pending);
  CHECK(parse_stored_status("cancelled") == Status::Cancelled);
  CHECK(parse_stored_status("needs_attention") == Status::NeedsAttention);
  CHECK_FALSE(parse_stored_status("wip").has_value());
  CHECK(parse_status_filter("ready") == StatusFilter::Ready);
  CHECK(parse_status_filter("blocked") == StatusFilter::Blocked);
  CHECK_FALSE(parse_status_filter("everything").has_value());
}
