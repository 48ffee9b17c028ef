// HttpClientChannel against a cpp-httplib server in this process: headers on every POST,
// session id kept and sent back, JSON and SSE answers (with a notification and a server request
// before the response), per-call deadlines, HTTP errors named, DELETE on close.
#include "mcpref/http_client_channel.hpp"

#include <catch2/catch.hpp>
#include <httplib.h>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

using mcpref::Json;

namespace {

struct Seen {
  std::string method;  // HTTP method
  std::string accept, session, version;
  Json body;
};

// A tiny MCP endpoint: initialize answers as JSON and issues a session; "slow" never answers in
// time; "sse" answers as an SSE stream with a progress notification and a ping request first.
class FakeEndpoint {
 public:
  FakeEndpoint() {
    server_.Post("/mcp", [this](const httplib::Request& req, httplib::Response& res) {
      Json body = Json::parse(req.body);
      record(req, body);
      if (!body.contains("id") || body.contains("result")) {
        res.status = 202;
        return;
      }
      std::string method = body["method"];
      if (method == "initialize") {
        res.set_header("Mcp-Session-Id", "abc123");
        res.set_content(Json{{"jsonrpc", "2.0"}, {"id", body["id"]},
                             {"result", {{"protocolVersion", "2025-06-18"}, {"capabilities", Json::object()},
                                         {"serverInfo", {{"name", "fake"}, {"version", "1"}}}}}}
                            .dump(),
                        "application/json");
      } else if (method == "slow") {
        std::this_thread::sleep_for(std::chrono::milliseconds(800));
        res.set_content("{}", "application/json");
      } else if (method == "sse") {
        std::string stream = ": hello\n\n";
        stream += "data: " + Json{{"jsonrpc", "2.0"}, {"method", "notifications/progress"},
                                  {"params", {{"progressToken", 1}, {"progress", 1}}}}
                                 .dump() +
                  "\n\n";
        stream += "data: " + Json{{"jsonrpc", "2.0"}, {"id", "s1"}, {"method", "ping"}}.dump() + "\n\n";
        stream += "id: 1\ndata: " + Json{{"jsonrpc", "2.0"}, {"id", body["id"]}, {"result", {{"ok", true}}}}.dump() +
                  "\n\n";
        res.set_content(stream, "text/event-stream");
      } else if (method == "resumable") {
        // A priming event (id, retry, no data), then the stream ends before the answer, which
        // only a GET with Last-Event-ID reaches.
        res.set_content("id: ev-1\nretry: 100\ndata:\n\n", "text/event-stream");
        std::lock_guard lock(mutex_);
        parked_ = Json{{"jsonrpc", "2.0"}, {"id", body["id"]}, {"result", {{"resumed", true}}}};
      } else if (method == "fails") {
        res.set_content(Json{{"jsonrpc", "2.0"}, {"id", body["id"]},
                             {"error", {{"code", -32000}, {"message", "tool broke"}}}}
                            .dump(),
                        "application/json");
      } else {
        res.status = 500;
        res.set_content("boom", "text/plain");
      }
    });
    server_.Get("/mcp", [this](const httplib::Request& req, httplib::Response& res) {
      record(req, Json());
      std::lock_guard lock(mutex_);
      if (req.get_header_value("Last-Event-ID") == "ev-1" && !parked_.is_null()) {
        res.set_content("id: ev-2\ndata: " + parked_.dump() + "\n\n", "text/event-stream");
        parked_ = nullptr;
      } else if (!req.has_header("Last-Event-ID") && !req.get_header_value("Mcp-Session-Id").empty() && !pushed_) {
        // The standalone stream: the server asks something of its own, once.
        pushed_ = true;
        res.set_content("id: g-1\ndata: " + Json{{"jsonrpc", "2.0"}, {"id", "g1"}, {"method", "ping"}}.dump() + "\n\n",
                        "text/event-stream");
      } else {
        res.status = 405;
      }
    });
    server_.Delete("/mcp", [this](const httplib::Request& req, httplib::Response& res) {
      record(req, Json());
      res.status = 200;
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~FakeEndpoint() {
    server_.stop();
    thread_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/mcp"; }
  std::vector<Seen> seen() {
    std::lock_guard lock(mutex_);
    return seen_;
  }

 private:
  void record(const httplib::Request& req, const Json& body) {
    std::lock_guard lock(mutex_);
    seen_.push_back({req.method, req.get_header_value("Accept"), req.get_header_value("Mcp-Session-Id"),
                     req.get_header_value("MCP-Protocol-Version"), body});
  }
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mutex_;
  std::vector<Seen> seen_;
  Json parked_;  // the answer a resumption delivers
  bool pushed_ = false;
};

}  // namespace

TEST_CASE("the HTTP channel speaks Streamable HTTP: headers, session, JSON and SSE answers, DELETE", "[http]") {
  FakeEndpoint endpoint;
  mcpref::HttpClientChannel channel({endpoint.url()});
  std::vector<std::string> notes;
  std::vector<Json> sent_ids;
  channel.on_notification([&](const std::string& m, const Json&) { notes.push_back(m); });
  channel.on_request([](const std::string&, const Json&) { return Json::object(); });
  channel.on_request_sent([&](const std::string&, const Json& id) { sent_ids.push_back(id); });
  channel.open(std::chrono::seconds(1));

  Json init = channel.request("initialize", {{"protocolVersion", "2025-11-25"}}, std::chrono::seconds(5));
  CHECK(init["protocolVersion"] == "2025-06-18");
  CHECK(channel.session_id() == "abc123");
  channel.notify("notifications/initialized", nullptr);
  Json r = channel.request("sse", Json::object(), std::chrono::seconds(5));
  CHECK(r["ok"] == true);
  CHECK(notes == std::vector<std::string>{"notifications/progress"});
  CHECK(sent_ids.size() == 2);

  try {
    channel.request("fails", nullptr, std::chrono::seconds(5));
    FAIL("no ServerError");
  } catch (const mcpref::ServerError& e) {
    CHECK(e.code() == -32000);
  }
  CHECK_THROWS_AS(channel.request("other", nullptr, std::chrono::seconds(5)), mcpref::ChannelClosed);
  // The GET stream's ping is answered on the stream's own thread: give it a bounded moment.
  auto answered_g1 = [&] {
    for (const auto& s : endpoint.seen())
      if (s.method == "POST" && s.body.is_object() && s.body.value("id", Json()) == "g1") return true;
    return false;
  };
  for (auto until = std::chrono::steady_clock::now() + std::chrono::seconds(3);
       !answered_g1() && std::chrono::steady_clock::now() < until;)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  channel.close(std::chrono::seconds(2));
  CHECK_FALSE(channel.is_open());

  auto seen = endpoint.seen();
  REQUIRE(seen.size() >= 6);
  for (const auto& s : seen) {
    CHECK(s.accept == (s.method == "GET" ? "text/event-stream" : "application/json, text/event-stream"));
    bool first = s.body.is_object() && s.body.value("method", "") == "initialize";
    CHECK(s.session == (first ? "" : "abc123"));
    if (!first) CHECK(s.version == "2025-06-18");
  }
  // the answers to the server's pings (on the POST's SSE answer, and on the GET stream opened
  // after notifications/initialized) went back as POSTs of their own
  auto answered = [&](const char* id) {
    for (const auto& s : seen)
      if (s.method == "POST" && s.body.is_object() && s.body.value("id", Json()) == id && s.body.contains("result"))
        return true;
    return false;
  };
  CHECK(answered("s1"));
  CHECK(answered("g1"));
  CHECK(seen.back().method == "DELETE");
}

TEST_CASE("an HTTP request past its deadline throws RequestTimeout with its id", "[http]") {
  FakeEndpoint endpoint;
  mcpref::HttpClientChannel channel({endpoint.url()});
  channel.open(std::chrono::seconds(1));
  auto start = std::chrono::steady_clock::now();
  try {
    channel.request("slow", nullptr, std::chrono::milliseconds(200));
    FAIL("no timeout");
  } catch (const mcpref::RequestTimeout& e) {
    CHECK(e.id() == 1);
  }
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::milliseconds(700));
}

TEST_CASE("unusable endpoints are named", "[http]") {
  CHECK_THROWS_WITH(mcpref::split_endpoint_url("localhost:8080/mcp"), Catch::Contains("not an http"));
  CHECK_THROWS_WITH(mcpref::split_endpoint_url("ftp://h/mcp"), Catch::Contains("ftp"));
  CHECK(mcpref::split_endpoint_url("http://h:1").path == "/");
  mcpref::HttpClientChannel closed_port({"http://127.0.0.1:1/mcp"});
  closed_port.open(std::chrono::seconds(1));
  CHECK_THROWS_WITH(closed_port.request("ping", nullptr, std::chrono::seconds(2)), Catch::Contains("cannot reach"));
}

TEST_CASE("an SSE answer cut off after a priming event is resumed with GET and Last-Event-ID", "[http]") {
  FakeEndpoint endpoint;
  mcpref::HttpClientChannel channel({endpoint.url()});
  channel.open(std::chrono::seconds(1));
  auto start = std::chrono::steady_clock::now();
  Json r = channel.request("resumable", nullptr, std::chrono::seconds(5));
  CHECK(r["resumed"] == true);
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(100));  // the server's retry
  auto seen = endpoint.seen();
  REQUIRE(seen.size() == 2);
  CHECK(seen[1].method == "GET");
}
