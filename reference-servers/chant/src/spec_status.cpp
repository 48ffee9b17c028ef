#include "spec_status.hpp"

namespace chant {

std::string_view to_string(Status s) {
  switch (s) {
    case Status::Pending: return "pending";
    case Status::InProgress: return "in_progress";
    case Status::Completed: return "completed";
    case Status::Failed: return "failed";
    case Status::Blocked: return "blocked";
    case Status::Cancelled: return "cancelled";
    case Status::NeedsAttention: return "needs_attention";
  }
  return "pending";
}

std::optional<Status> parse_stored_status(std::string_view t) {
  if (t == "pending" || t == "ready") return Status::Pending;
  if (t == "in_progress") return Status::InProgress;
  if (t == "completed") return Status::Completed;
  if (t == "failed") return Status::Failed;
  if (t == "blocked") return Status::Blocked;
  if (t == "cancelled") return Status::Cancelled;
  if (t == "needs_attention") return Status::NeedsAttention;
  return std::nullopt;
}

std::optional<Status> parse_update_status(std::string_view t) {
  if (t == "pending") return Status::Pending;
  if (t == "in_progress") return Status::InProgress;
  if (t == "completed") return Status::Completed;
  if (t == "failed") return Status::Failed;
  return std::nullopt;
}

std::optional<StatusFilter> parse_status_filter(std::string_view t) {
  if (t == "pending") return StatusFilter::Pending;
  if (t == "in_progress") return StatusFilter::InProgress;
  if (t == "completed") return StatusFilter::Completed;
  if (t == "failed") return StatusFilter::Failed;
  if (t == "blocked") return StatusFilter::Blocked;
  if (t == "cancelled") return StatusFilter::Cancelled;
  if (t == "needs_attention") return StatusFilter::NeedsAttention;
  if (t == "ready") return StatusFilter::Ready;
  return std::nullopt;
}

}  // namespace chant
