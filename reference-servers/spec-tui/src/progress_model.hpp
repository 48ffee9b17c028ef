// What the progress bar shows: the latest notifications/progress for the running call (value,
// total when known, message text), and how that renders in a given width.
#pragma once

#include <optional>
#include <string>

namespace spectui {

class ProgressModel {
 public:
  void reset();
  // Takes one notification's values; returns false (and changes nothing) when the value does not
  // increase, which MCP requires of a progress sequence.
  bool update(double progress, std::optional<double> total, const std::string& message);

  bool active() const { return seen_; }
  // 0..1 when a total is known, else nullopt (the bar then shows the count only).
  std::optional<double> fraction() const;
  const std::string& message() const { return message_; }
  double progress() const { return progress_; }
  std::optional<double> total() const { return total_; }

  // "[#####.....]  50%" in exactly `width` columns (at least 8); "[  3 steps ]" without a total.
  std::string bar(int width) const;
  // "50% Analyzing requirements..." / "step 3: message": the one-line text form (batch, log).
  std::string line() const;

 private:
  bool seen_ = false;
  double progress_ = 0;
  std::optional<double> total_;
  std::string message_;
};

}  // namespace spectui
