#pragma once
// A loopback HTTP listener nothing should ever reach. A client-role scenario hands its URL to the
// client under test inside data the client must never dereference by itself (a network `$ref` in
// a tool's schema, JSD-06); every request that does arrive is recorded and answered 404, so the
// scenario can check the list is empty. Transport independent: it runs beside any carrier.
#include <nlohmann/json.hpp>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace httplib {
class Server;
}

namespace mcpspec::transport::http {

class FetchTrap {
 public:
  // Listens on 127.0.0.1, any free port. Throws TransportError when no port can be had.
  FetchTrap();
  ~FetchTrap();
  FetchTrap(const FetchTrap&) = delete;
  FetchTrap& operator=(const FetchTrap&) = delete;

  // http://127.0.0.1:PORT (no trailing slash).
  std::string url() const;
  // Every request so far, in arrival order: {"method", "path", "ms"} (ms since the trap started).
  nlohmann::json requests() const;

 private:
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  mutable std::mutex mu_;
  nlohmann::json requests_ = nlohmann::json::array();
};

}  // namespace mcpspec::transport::http
