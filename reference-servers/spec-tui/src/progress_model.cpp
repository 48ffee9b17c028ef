#include "progress_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace spectui {

void ProgressModel::reset() { *this = ProgressModel{}; }

bool ProgressModel::update(double progress, std::optional<double> total, const std::string& message) {
  if (seen_ && progress <= progress_) return false;
  seen_ = true;
  progress_ = progress;
  total_ = total && *total > 0 ? total : std::nullopt;
  message_ = message;
  return true;
}

std::optional<double> ProgressModel::fraction() const {
  if (!total_) return std::nullopt;
  return std::clamp(progress_ / *total_, 0.0, 1.0);
}

std::string ProgressModel::bar(int width) const {
  width = std::max(width, 8);
  char pct[16];
  auto f = fraction();
  if (!f) {
    std::snprintf(pct, sizeof pct, "%g", progress_);
    std::string inner = std::string(" ") + pct + " steps ";
    std::string out = "[" + inner.substr(0, static_cast<std::size_t>(width - 2));
    out.resize(static_cast<std::size_t>(width - 1), ' ');
    return out + "]";
  }
  std::snprintf(pct, sizeof pct, " %3d%%", static_cast<int>(std::lround(*f * 100)));
  int cells = width - 2 - 5;
  int filled = static_cast<int>(std::lround(*f * std::max(cells, 0)));
  return "[" + std::string(static_cast<std::size_t>(filled), '#') +
         std::string(static_cast<std::size_t>(std::max(cells - filled, 0)), '.') + "]" + pct;
}

std::string ProgressModel::line() const {
  char head[48];
  auto f = fraction();
  if (f)
    std::snprintf(head, sizeof head, "%3d%% (%g/%g)", static_cast<int>(std::lround(*f * 100)), progress_, *total_);
  else
    std::snprintf(head, sizeof head, "step %g", progress_);
  return message_.empty() ? std::string(head) : std::string(head) + " " + message_;
}

}  // namespace spectui
