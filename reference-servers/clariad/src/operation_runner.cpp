#include "operation_runner.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>

#include "rpc_error.hpp"
#include "text_utils.hpp"

namespace clariad {

namespace {

std::string seconds_text(double seconds) {
  std::string text = fmt::format("{:.3f}", seconds);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

OJson response(const OJson& id, OJson result) {
  OJson message = OJson::object();
  message["jsonrpc"] = "2.0";
  message["id"] = id;
  message["result"] = std::move(result);
  return message;
}

OJson text_result(const std::string& text) {
  OJson content = OJson::object();
  content["type"] = "text";
  content["text"] = text;
  OJson result = OJson::object();
  result["content"] = OJson::array({content});
  result["isError"] = false;
  return result;
}

}  // namespace

OperationPlan plan_operation(double duration_seconds) {
  OperationPlan plan;
  const double whole = std::ceil(duration_seconds);
  plan.updates = static_cast<std::size_t>(std::clamp(whole, static_cast<double>(kMinUpdates), static_cast<double>(kMaxUpdates)));
  for (std::size_t k = 0; k < plan.updates; ++k) {
    plan.offsets.push_back(duration_seconds * static_cast<double>(k) / static_cast<double>(plan.updates));
  }
  return plan;
}

std::string progress_text(const std::string& name, std::size_t step, const OperationPlan& plan, double duration_seconds) {
  const std::size_t percent = step * 100 / plan.updates;
  return fmt::format("{}: {}% complete ({} of {} seconds)", name, percent, seconds_text(plan.offsets[step]),
                     seconds_text(duration_seconds));
}

std::string completion_text(const std::string& name, const OperationPlan& plan, double duration_seconds) {
  return fmt::format("Completed operation: {} ({} seconds, {} progress updates)", name, seconds_text(duration_seconds),
                     plan.updates);
}

OperationRunner::OperationRunner(LineSink& sink, std::size_t max_running)
    : sink_(sink), max_running_(max_running == 0 ? 1 : max_running) {}

OperationRunner::~OperationRunner() {
  cancel_all();
  wait_all();
}

std::vector<std::jthread> OperationRunner::take_finished_locked() {
  std::vector<std::jthread> finished;
  for (auto it = slots_.begin(); it != slots_.end();) {
    if (it->second.done) {
      finished.push_back(std::move(it->second.thread));
      it = slots_.erase(it);
    } else {
      ++it;
    }
  }
  return finished;
}

void OperationRunner::start(OperationRequest request) {
  std::vector<std::jthread> finished;  // joined after the lock is released
  std::lock_guard lock(mutex_);
  finished = take_finished_locked();
  if (slots_.count(request.key)) {
    throw RpcError(ErrorCode::InvalidRequest,
                   fmt::format("id {} is already used by a long_running_operation that is still streaming; use a new id",
                               shorten(request.key, 100)),
                   "/id");
  }
  if (slots_.size() >= max_running_) {
    throw RpcError(ErrorCode::InternalError,
                   fmt::format("{} long-running operations are already running (the limit); retry when one finishes",
                               slots_.size()));
  }
  const std::string key = request.key;
  Slot& slot = slots_[key];
  slot.thread = std::jthread([this](std::stop_token stop, OperationRequest req) { run(stop, std::move(req)); },
                             std::move(request));
}

void OperationRunner::run(std::stop_token stop, OperationRequest request) {
  using Clock = std::chrono::steady_clock;
  const OperationPlan plan = plan_operation(request.duration_seconds);
  const auto start = Clock::now();
  auto at = [&](double seconds) {
    return start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  };

  std::unique_lock lock(mutex_);
  auto finish = [&] {
    slots_[request.key].done = true;
    changed_.notify_all();
  };

  for (std::size_t step = 0; step < plan.updates; ++step) {
    timer_.wait_until(lock, stop, at(plan.offsets[step]), [] { return false; });
    if (stop.stop_requested()) return finish();
    const std::string text = progress_text(request.name, step, plan, request.duration_seconds);
    OJson message;
    if (request.mode == StreamMode::Legacy) {
      OJson result = OJson::object();
      result["output"] = text;
      result["status"] = "in_progress";
      message = response(request.id, std::move(result));
    } else if (request.progress_token) {
      OJson params = OJson::object();
      params["progressToken"] = *request.progress_token;
      params["progress"] = step;
      params["total"] = plan.updates;
      if (request.progress_message) params["message"] = text;
      message = OJson::object();
      message["jsonrpc"] = "2.0";
      message["method"] = "notifications/progress";
      message["params"] = std::move(params);
    } else {
      continue;
    }
    // Written without the lock so a slow reader on the other end cannot stall start().
    lock.unlock();
    const bool ok = send_message(sink_, message);
    lock.lock();
    if (!ok) return finish();
  }

  timer_.wait_until(lock, stop, at(request.duration_seconds), [] { return false; });
  if (stop.stop_requested()) return finish();
  const std::string text = completion_text(request.name, plan, request.duration_seconds);
  OJson result = OJson::object();
  if (request.mode == StreamMode::Legacy) {
    result["output"] = text;
  } else {
    result = text_result(text);
  }
  // The final response is written while holding the lock: once a client has read it, a new
  // request reusing the id is guaranteed to find this operation finished.
  send_message(sink_, response(request.id, std::move(result)));
  finish();
}

bool OperationRunner::cancel(const std::string& key) {
  std::lock_guard lock(mutex_);
  const auto it = slots_.find(key);
  if (it == slots_.end() || it->second.done) return false;
  it->second.thread.request_stop();
  return true;
}

void OperationRunner::cancel_all() {
  std::lock_guard lock(mutex_);
  for (auto& [key, slot] : slots_) slot.thread.request_stop();
}

void OperationRunner::wait_all() {
  std::vector<std::jthread> finished;
  {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] {
      for (const auto& [key, slot] : slots_) {
        if (!slot.done) return false;
      }
      return true;
    });
    finished = take_finished_locked();
  }
}

bool OperationRunner::is_running(const std::string& key) const {
  std::lock_guard lock(mutex_);
  const auto it = slots_.find(key);
  return it != slots_.end() && !it->second.done;
}

std::size_t OperationRunner::running() const {
  std::lock_guard lock(mutex_);
  std::size_t n = 0;
  for (const auto& [key, slot] : slots_) n += slot.done ? 0 : 1;
  return n;
}

}  // namespace clariad
