// The lifecycle states a spec can be in, and which of them each operation accepts.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace chant {

enum class Status { Pending, InProgress, Completed, Failed, Blocked, Cancelled, NeedsAttention };

std::string_view to_string(Status s);

// Reads a status as written in a spec file. "ready" is accepted as a synonym of pending
// (readiness is computed from dependencies, never stored).
std::optional<Status> parse_stored_status(std::string_view text);

// The four values chant_spec_update accepts, in the order error messages list them.
std::optional<Status> parse_update_status(std::string_view text);
inline constexpr std::string_view kUpdateStatuses = "pending, in_progress, completed, failed";

// Every stored status, for messages.
inline constexpr std::string_view kStoredStatuses =
    "pending, in_progress, completed, failed, blocked, cancelled, needs_attention";

// Filters accepted by chant_spec_list and chant_search: the stored statuses plus the computed
// "ready" (pending, dependencies met) and "blocked" (stored blocked, or pending with unmet
// dependencies).
enum class StatusFilter { Pending, InProgress, Completed, Failed, Blocked, Cancelled, NeedsAttention, Ready };
std::optional<StatusFilter> parse_status_filter(std::string_view text);
inline constexpr std::string_view kStatusFilters =
    "pending, in_progress, completed, failed, blocked, cancelled, needs_attention, ready";

}  // namespace chant
