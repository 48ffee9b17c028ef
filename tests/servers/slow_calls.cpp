#include "slow_calls.hpp"

#include "capabilities.hpp"

#include <chrono>
#include <cstdint>

namespace testserver {

namespace {
// progress-wrong-token: a token of the same type that no request carried.
json altered_token(const json& token) {
  if (token.is_string()) return token.get<std::string>() + "-not-yours";
  if (token.is_number_unsigned()) return token.get<std::uint64_t>() / 2 + 1000003;
  return token.get<std::int64_t>() / 2 + 1000003;
}
}  // namespace

json SlowCalls::progress_notification(const SlowJob& job, long long progress, long long total) const {
  json params = {{"progressToken", fault_ == Fault::progress_wrong_token
                                       ? altered_token(*job.progress_token)
                                       : *job.progress_token},
                 {"progress", progress},
                 {"total", total}};
  // The message member arrived with 2025-03-26.
  if (job.version >= Version::v2025_03_26) {
    params["message"] = "step " + std::to_string(progress) + " of " +
                        std::to_string(total);
  }
  return Wire::notification("notifications/progress", std::move(params));
}

SlowCalls::StepsOutcome SlowCalls::run_steps(const SlowJob& job, const bool* cancelled) {
  const bool decreasing = fault_ == Fault::decreasing_progress;
  // A decreasing sequence needs two values to be visible at all.
  const int count = decreasing && job.steps < 2 ? 2 : job.steps;
  for (int i = 1; i <= count; ++i) {
    {
      std::unique_lock lock(mu_);
      auto interrupted = [&] { return hurry_ || (cancelled != nullptr && *cancelled); };
      cv_.wait_for(lock, std::chrono::milliseconds(job.delay_ms), interrupted);
      if (cancelled != nullptr && *cancelled) return {Ending::cancelled, i - 1};
    }
    if (job.progress_token) {
      const long long value = decreasing ? count - i + 1 : i;
      wire_.send(progress_notification(job, value, count));
    }
  }
  return {Ending::finished, count};
}

json SlowCalls::final_result(const SlowJob& job, const StepsOutcome& o) const {
  std::string text = o.ending == Ending::finished
                         ? "slow_progress finished " + std::to_string(o.completed) + " steps"
                         : "slow_progress was cancelled after " + std::to_string(o.completed) +
                               " of " + std::to_string(job.steps) + " steps";
  json result = {{"content", json::array({{{"type", "text"}, {"text", text}}})}};
  // Answered later, outside the session's modern result finishing (modern.cpp): the same members here.
  if (job.version >= Version::v2026_07_28) {
    if (fault_ != Fault::missing_result_type) result["resultType"] = "complete";
    result["_meta"]["io.modelcontextprotocol/serverInfo"] = server_info(job.version);
  }
  return result;
}

SlowCalls::InlineResult SlowCalls::run_inline(const SlowJob& job) {
  StepsOutcome o = run_steps(job, nullptr);
  InlineResult r;
  r.result = final_result(job, o);
  if (fault_ == Fault::progress_after_response && job.progress_token) {
    r.trailing.push_back(progress_notification(job, o.completed + 1, o.completed + 1));
  }
  return r;
}

void SlowCalls::worker(SlowJob job, Running* self) {
  StepsOutcome o = run_steps(job, &self->cancelled);
  const bool answer = o.ending == Ending::finished ||
                      (o.ending == Ending::cancelled && fault_ == Fault::cancel_still_answers);
  if (answer) {
    wire_.send(wire_.result_response(job.id, final_result(job, o)));
    if (fault_ == Fault::progress_after_response && job.progress_token) {
      wire_.send(progress_notification(job, o.completed + 1, o.completed + 1));
    }
  }
  std::lock_guard lock(mu_);
  by_id_.erase(to_line(job.id));
  self->done = true;
  cv_.notify_all();
}

void SlowCalls::reap_locked() {
  for (auto it = running_.begin(); it != running_.end();) {
    if (it->done) {
      if (it->thread.joinable()) it->thread.join();
      it = running_.erase(it);
    } else {
      ++it;
    }
  }
}

SlowCalls::Start SlowCalls::start(SlowJob job) {
  std::lock_guard lock(mu_);
  reap_locked();
  const std::string key = to_line(job.id);
  if (by_id_.count(key) != 0) return Start::id_in_use;
  if (by_id_.size() >= kMaxRunning) return Start::too_many;
  Running& r = running_.emplace_back();
  by_id_[key] = &r;
  r.thread = std::thread([this, job = std::move(job), p = &r]() mutable { worker(std::move(job), p); });
  return Start::started;
}

void SlowCalls::cancel(const json& request_id) {
  std::lock_guard lock(mu_);
  auto it = by_id_.find(to_line(request_id));
  if (it == by_id_.end()) return;
  it->second->cancelled = true;
  cv_.notify_all();
}

void SlowCalls::finish_all() {
  std::unique_lock lock(mu_);
  hurry_ = true;
  cv_.notify_all();
  // Join without the lock: a worker needs it to finish.
  std::list<Running> all;
  all.splice(all.end(), running_);
  by_id_.clear();
  lock.unlock();
  for (auto& r : all) {
    if (r.thread.joinable()) r.thread.join();
  }
}

}  // namespace testserver
