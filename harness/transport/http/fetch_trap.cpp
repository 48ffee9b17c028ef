#include "harness/transport/http/fetch_trap.hpp"

#include "harness/transport/http/httplib_support.hpp"

#include <fmt/format.h>
#include <httplib.h>

namespace mcpspec::transport::http {

FetchTrap::FetchTrap() : server_(std::make_unique<httplib::Server>()) {
  auto record = [this](const httplib::Request& q, httplib::Response& r) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (requests_.size() < 100)  // enough to show the fetch; a looping client cannot grow it unbounded
        requests_.push_back(
            {{"method", q.method},
             {"path", q.path},
             {"ms", std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started_)
                        .count()}});
    }
    r.status = 404;
    r.set_content("mcpspec: this URL must never be fetched\n", "text/plain");
  };
  server_->Get(".*", record);
  server_->Post(".*", record);
  server_->Options(".*", record);
  port_ = listen_for_client(*server_, thread_, 4, [this](const httplib::Request& q, int status, const std::string&) {
    std::lock_guard<std::mutex> lock(mu_);
    if (requests_.size() < 100) requests_.push_back({{"method", q.method}, {"path", q.path}, {"refused", status}});
  });
}

FetchTrap::~FetchTrap() {
  server_->stop();
  if (thread_.joinable()) thread_.join();
}

std::string FetchTrap::url() const { return fmt::format("http://127.0.0.1:{}", port_); }

nlohmann::json FetchTrap::requests() const {
  std::lock_guard<std::mutex> lock(mu_);
  return requests_;
}

}  // namespace mcpspec::transport::http
