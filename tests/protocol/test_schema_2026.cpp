// Our 2026-07-28 schemas (stateless MCP): the typed examples of the specification validate in the
// definition they are named after, and the messages the revision rules out are rejected: legacy
// handshake and removed methods, results without resultType, requests without their _meta,
// untagged subscription notifications, input-required results that ask for nothing.
#include "harness/protocol/schema_registry.hpp"
#include "tests/protocol/outcome_text.hpp"
#include "tests/protocol/schema_corpus.hpp"

#include <catch2/catch.hpp>

namespace {

using mcpspec::protocol::Sender;
using mcpspec::protocol::SchemaRegistry;
using mcpspec::protocol::ValidationOutcome;
using nlohmann::json;
using mcpspec::test::dump;
using mcpspec::test::has_issue;

const std::string kModern = "2026-07-28";

const SchemaRegistry& reg() { return SchemaRegistry::builtin(); }

ValidationOutcome check(const std::string& text, Sender sender = Sender::Client, std::string_view answered = {}) {
  return reg().validate(json::parse(text), kModern, sender, answered);
}

// The _meta every 2026-07-28 request carries.
const std::string kMeta =
    R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}})";

std::string request(const std::string& method, const std::string& params_members = "") {
  return R"({"jsonrpc":"2.0","id":7,"method":")" + method + R"(","params":{)" + kMeta +
         (params_members.empty() ? "" : "," + params_members) + "}}";
}

std::string response(const std::string& result) { return R"({"jsonrpc":"2.0","id":7,"result":)" + result + "}"; }

// Our methods.json of 2026-07-28, for the facts the registry does not load (message names,
// input requests, extension, caching and header members).
const json& methods_json() {
  static const json doc = json::parse(
      mcpspec::test::read_text(mcpspec::test::source_dir() + "/harness/protocol/schemas/2026-07-28/methods.json"));
  return doc;
}

const std::string kTagged = R"("_meta":{"io.modelcontextprotocol/subscriptionId":5})";

}  // namespace

TEST_CASE("2026-07-28: every typed example of the specification validates in its definition", "[schema][2026]") {
  std::size_t checked = 0;
  for (const auto& item : mcpspec::test::example_items(reg(), kModern)) {
    // schema-examples/<Definition>/<file>.json: the folder names the official definition.
    const std::string prefix = "schema-examples/";
    if (item.where.rfind(prefix, 0) != 0) continue;
    const std::string named = item.where.substr(prefix.size(), item.where.find('/', prefix.size()) - prefix.size());
    INFO(item.where << "\n" << item.message.dump());
    ++checked;
    const json& m = item.message;
    if (item.where == "schema-examples/ReadResourceResultResponse/read-resource-result-response.json") {
      // Checklist A8: the schema's own example leaves out ttlMs and cacheScope, which its
      // ReadResourceResult requires (CACHE-01). We hold servers to the requirement.
      auto outcome = reg().validate(m, kModern, Sender::Server, "resources/read");
      CHECK_FALSE(outcome.valid);
      CHECK(has_issue(outcome, "/result", "'ttlMs'"));
      continue;
    }
    if (named.ends_with("Error")) {
      auto outcome = reg().validate(m, kModern, Sender::Server);
      CHECK(outcome.valid);
      CHECK(outcome.definition == "RpcErrorResponse");
      continue;
    }
    if (named.ends_with("ResultResponse")) {
      // The response to XxxRequest: checked as the answer to that method.
      const std::string request_def = named.substr(0, named.size() - std::string("ResultResponse").size()) + "Request";
      std::string method;
      for (const auto& [name, entry] : methods_json().at("methods").items()) {
        if (entry.at("message") == request_def) method = name;
      }
      REQUIRE_FALSE(method.empty());
      auto outcome = reg().validate(m, kModern, Sender::Server, method);
      CHECK(outcome.valid);
      CHECK(outcome.definition == reg().method(kModern, method)->result);
      continue;
    }
    // Requests and notifications: our definition has the official name.
    auto outcome = reg().validate(m, kModern, item.sender);
    INFO(dump(outcome));
    CHECK(outcome.valid);
    CHECK(outcome.definition == named);
  }
  CHECK(checked >= 30);
}

TEST_CASE("2026-07-28: the legacy handshake and removed methods are rejected, not unknown", "[schema][2026]") {
  auto initialize = check(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",
      "capabilities":{},"clientInfo":{"name":"c","version":"1"}}})");
  INFO(dump(initialize));
  CHECK_FALSE(initialize.valid);
  CHECK(has_issue(initialize, "/method", ""));
  CHECK_FALSE(check(R"({"jsonrpc":"2.0","id":1,"method":"ping"})").valid);
  CHECK_FALSE(check(request("ping")).valid);
  CHECK_FALSE(check(request("logging/setLevel", R"("level":"info")")).valid);
  CHECK_FALSE(check(request("resources/subscribe", R"("uri":"file:///a")")).valid);
  CHECK_FALSE(check(request("tasks/list")).valid);
  CHECK_FALSE(check(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").valid);
  CHECK_FALSE(check(R"({"jsonrpc":"2.0","method":"notifications/roots/list_changed"})").valid);
  CHECK_FALSE(check(R"({"jsonrpc":"2.0","method":"notifications/tasks/status","params":{}})", Sender::Server).valid);
  // None of them is in the method table; a vendor method stays valid at schema level.
  for (const char* gone : {"initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe",
                           "tasks/result", "tasks/list", "notifications/initialized", "sampling/createMessage",
                           "elicitation/create", "roots/list", "notifications/elicitation/complete"}) {
    INFO(gone);
    CHECK_FALSE(reg().method(kModern, gone));
  }
  CHECK(check(request("vendor/x")).valid);
  // The same messages are still fine in the legacy versions.
  CHECK(reg().validate(json::parse(R"({"jsonrpc":"2.0","id":1,"method":"ping"})"), "2025-11-25", Sender::Client).valid);
}

TEST_CASE("2026-07-28: every request carries its version and client capabilities in _meta", "[schema][2026]") {
  CHECK(check(request("tools/list")).valid);
  CHECK(check(request("server/discover")).valid);
  auto bare = check(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  CHECK_FALSE(bare.valid);
  CHECK(has_issue(bare, "", "'params'"));
  auto no_meta = check(R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}})");
  CHECK_FALSE(no_meta.valid);
  CHECK(has_issue(no_meta, "/params", "'_meta'"));
  auto no_caps = check(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t",
      "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}})");
  CHECK_FALSE(no_caps.valid);
  CHECK(has_issue(no_caps, "/params/_meta", "io.modelcontextprotocol/clientCapabilities"));
  CHECK_FALSE(check(R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{
      "io.modelcontextprotocol/clientCapabilities":{}}}})").valid);
  CHECK_FALSE(check(request("tools/list", R"("_meta":{"io.modelcontextprotocol/protocolVersion":20260728,
      "io.modelcontextprotocol/clientCapabilities":{}})")).valid);
  // logLevel, when present, is a log level.
  CHECK_FALSE(check(R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{
      "io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},
      "io.modelcontextprotocol/logLevel":"loud"}}})").valid);
  // Only clients send requests; a server's tools/call is from the wrong party.
  CHECK_FALSE(check(request("tools/call", R"("name":"t")"), Sender::Server).valid);
  CHECK_FALSE(reg().validate_definition(json::parse(request("tools/list")), kModern, "ServerRequest").valid);
}

TEST_CASE("2026-07-28: every result says its resultType, final results say complete", "[schema][2026]") {
  const std::string tools = R"("tools":[],"ttlMs":0,"cacheScope":"public")";
  CHECK(check(response(R"({"resultType":"complete",)" + tools + "}"), Sender::Server, "tools/list").valid);
  auto missing = check(response("{" + tools + "}"), Sender::Server, "tools/list");
  CHECK_FALSE(missing.valid);
  CHECK(has_issue(missing, "/result", "'resultType'"));
  // Even when the method answered is not known, the generic result needs it.
  auto generic = check(response("{}"), Sender::Server);
  CHECK_FALSE(generic.valid);
  CHECK(has_issue(generic, "/result", "'resultType'"));
  CHECK(check(response(R"({"resultType":"complete"})"), Sender::Server).valid);
  // input_required is for tools/call, prompts/get and resources/read only.
  CHECK_FALSE(check(response(R"({"resultType":"input_required","requestState":"s",)" + tools + "}"), Sender::Server,
                    "tools/list")
                  .valid);
  CHECK(check(response(R"({"resultType":"complete","content":[]})"), Sender::Server, "tools/call").valid);
  CHECK_FALSE(check(response(R"({"content":[]})"), Sender::Server, "tools/call").valid);
  // Structured output may be any JSON value in 2026-07-28.
  CHECK(check(response(R"({"resultType":"complete","content":[],"structuredContent":[1,2]})"), Sender::Server,
              "tools/call")
            .valid);
}

TEST_CASE("2026-07-28: cacheable results carry ttlMs and cacheScope", "[schema][2026]") {
  CHECK(check(response(R"({"resultType":"complete","prompts":[],"ttlMs":5,"cacheScope":"private"})"), Sender::Server,
              "prompts/list")
            .valid);
  CHECK_FALSE(check(response(R"({"resultType":"complete","prompts":[],"cacheScope":"private"})"), Sender::Server,
                    "prompts/list")
                  .valid);
  CHECK_FALSE(check(response(R"({"resultType":"complete","prompts":[],"ttlMs":-1,"cacheScope":"private"})"),
                    Sender::Server, "prompts/list")
                  .valid);
  CHECK_FALSE(check(response(R"({"resultType":"complete","prompts":[],"ttlMs":1.5,"cacheScope":"private"})"),
                    Sender::Server, "prompts/list")
                  .valid);
  CHECK_FALSE(check(response(R"({"resultType":"complete","prompts":[],"ttlMs":5,"cacheScope":"shared"})"),
                    Sender::Server, "prompts/list")
                  .valid);
  const std::string discover = R"({"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{},)";
  CHECK(check(response(discover + R"("ttlMs":0,"cacheScope":"public"})"), Sender::Server, "server/discover").valid);
  CHECK_FALSE(check(response(discover + R"("ttlMs":0})"), Sender::Server, "server/discover").valid);
  CHECK_FALSE(check(response(R"({"resultType":"complete","capabilities":{},"ttlMs":0,"cacheScope":"public"})"),
                    Sender::Server, "server/discover")
                  .valid);
}

TEST_CASE("2026-07-28: input-required results and the retry that answers them", "[schema][2026]") {
  const std::string ask = R"({"resultType":"input_required","inputRequests":{"confirm":{"method":"elicitation/create",
      "params":{"mode":"form","message":"Deploy?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}}},
      "requestState":"opaque"})";
  for (const char* method : {"tools/call", "prompts/get", "resources/read"}) {
    INFO(method);
    auto outcome = check(response(ask), Sender::Server, method);
    INFO(dump(outcome));
    CHECK(outcome.valid);
    // Neither inputRequests nor requestState: it asks for nothing (MRTR-03).
    CHECK_FALSE(check(response(R"({"resultType":"input_required"})"), Sender::Server, method).valid);
    CHECK(check(response(R"({"resultType":"input_required","requestState":"s"})"), Sender::Server, method).valid);
  }
  // An input request is method and params, not a JSON-RPC message (MRTR-04).
  CHECK_FALSE(check(response(R"({"resultType":"input_required","inputRequests":{"r":{"jsonrpc":"2.0","id":1,
      "method":"roots/list"}}})"),
                    Sender::Server, "tools/call")
                  .valid);
  CHECK_FALSE(check(response(R"({"resultType":"input_required","inputRequests":{"r":{"method":"tools/list"}}})"),
                    Sender::Server, "tools/call")
                  .valid);
  CHECK(check(response(R"({"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"}}})"),
              Sender::Server, "tools/call")
            .valid);
  // URL elicitation has no elicitationId any more, but needs its url.
  CHECK(check(response(R"({"resultType":"input_required","inputRequests":{"u":{"method":"elicitation/create",
      "params":{"mode":"url","message":"Sign in","url":"https://example.com/a"}}}})"),
              Sender::Server, "tools/call")
            .valid);
  CHECK_FALSE(check(response(R"({"resultType":"input_required","inputRequests":{"u":{"method":"elicitation/create",
      "params":{"mode":"url","message":"Sign in"}}}})"),
                    Sender::Server, "tools/call")
                  .valid);
  // The retry: answers are input responses (no resultType of their own), and requestState echoed.
  CHECK(check(request("tools/call", R"("name":"deploy","inputResponses":{"confirm":{"action":"accept",
      "content":{"ok":true}}},"requestState":"opaque")"))
            .valid);
  CHECK_FALSE(check(request("tools/call", R"("name":"deploy","inputResponses":{"confirm":{"content":{"ok":true}}})"))
                  .valid);
  CHECK_FALSE(check(request("tools/call", R"("name":"deploy","requestState":42)")).valid);
  const json& call = methods_json().at("methods").at("tools/call");
  CHECK(call.at("inputRequired") == true);
  CHECK(call.at("completeResult") == "CallToolResult");
  CHECK(call.at("mcpName") == "name");
  CHECK(methods_json().at("inputRequests").at("elicitation/create").at("capability") == "client:elicitation");
  CHECK_FALSE(methods_json().at("methods").at("tools/list").contains("inputRequired"));
}

TEST_CASE("2026-07-28: listen streams and the notifications on them are tagged", "[schema][2026]") {
  CHECK(check(request("subscriptions/listen", R"("notifications":{"toolsListChanged":true})")).valid);
  CHECK_FALSE(check(request("subscriptions/listen")).valid);
  const std::string tagged = R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{)" + kTagged + "}}";
  CHECK(check(tagged, Sender::Server).valid);
  auto untagged = check(R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})", Sender::Server);
  CHECK_FALSE(untagged.valid);
  CHECK_FALSE(check(R"({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///a"}})",
                    Sender::Server)
                  .valid);
  CHECK(check(R"({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///a",)" + kTagged +
                  "}}",
              Sender::Server)
            .valid);
  CHECK_FALSE(check(R"({"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{
      "notifications":{}}})",
                    Sender::Server)
                  .valid);
  // The graceful close names the stream too.
  CHECK(check(response(R"({"resultType":"complete",)" + kTagged + "}"), Sender::Server, "subscriptions/listen").valid);
  CHECK_FALSE(check(response(R"({"resultType":"complete"})"), Sender::Server, "subscriptions/listen").valid);
  // Progress belongs to a request's own stream: no tag needed, and clients no longer send it.
  const std::string progress = R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,
      "progress":2}})";
  CHECK(check(progress, Sender::Server).valid);
  CHECK_FALSE(check(progress, Sender::Client).valid);
  CHECK(check(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}})").valid);
  CHECK_FALSE(check(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{}})").valid);
}

TEST_CASE("2026-07-28: the new error codes carry the data clients act on", "[schema][2026]") {
  CHECK(check(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version",
      "data":{"supported":["2026-07-28"],"requested":"1900-01-01"}}})", Sender::Server).valid);
  CHECK_FALSE(check(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"m"}})", Sender::Server).valid);
  CHECK_FALSE(check(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"m","data":{"supported":"2026-07-28",
      "requested":"x"}}})", Sender::Server).valid);
  CHECK(check(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"m","data":{"requiredCapabilities":
      {"elicitation":{}}}}})", Sender::Server).valid);
  CHECK_FALSE(check(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"m","data":{}}})", Sender::Server).valid);
  CHECK(check(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"Header mismatch"}})", Sender::Server).valid);
  // -32042 lost its data rule with its meaning (retired in 2026-07-28).
  CHECK(check(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32042,"message":"m"}})", Sender::Server).valid);
}

TEST_CASE("2026-07-28: the tasks extension's messages", "[schema][2026]") {
  const std::string handle = R"("taskId":"t1","status":"working","createdAt":"2026-07-28T10:00:00Z",
      "lastUpdatedAt":"2026-07-28T10:00:00Z","ttlMs":60000)";
  auto created = check(response(R"({"resultType":"task",)" + handle + "}"), Sender::Server, "tools/call");
  INFO(dump(created));
  CHECK(created.valid);
  CHECK_FALSE(check(response(R"({"resultType":"task","taskId":"t1"})"), Sender::Server, "tools/call").valid);
  CHECK(check(request("tasks/get", R"("taskId":"t1")")).valid);
  CHECK_FALSE(check(R"({"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"t1"}})").valid);
  CHECK(check(response(R"({"resultType":"complete",)" + handle + "}"), Sender::Server, "tasks/get").valid);
  // A tasks/get result is a final result, never a task handle (checklist A11a).
  CHECK_FALSE(check(response(R"({"resultType":"task",)" + handle + "}"), Sender::Server, "tasks/get").valid);
  // The full state depends on the status: a completed task carries its result, a failed one its error.
  const std::string done = R"({"resultType":"complete","taskId":"t1","status":"completed","createdAt":"a",
      "lastUpdatedAt":"b","ttlMs":null)";
  CHECK_FALSE(check(response(done + "}"), Sender::Server, "tasks/get").valid);
  CHECK(check(response(done + R"(,"result":{"resultType":"complete","content":[]}})"), Sender::Server, "tasks/get")
            .valid);
  CHECK(check(request("tasks/update", R"("taskId":"t1","inputResponses":{"a":{"action":"decline"}})")).valid);
  CHECK_FALSE(check(request("tasks/update", R"("taskId":"t1")")).valid);
  CHECK(check(R"({"jsonrpc":"2.0","method":"notifications/tasks","params":{)" + kTagged + "," + handle + "}}",
              Sender::Server)
            .valid);
  for (const char* method : {"tasks/get", "tasks/update", "tasks/cancel", "notifications/tasks"}) {
    INFO(method);
    CHECK(methods_json().at("methods").at(method).at("extension") == "io.modelcontextprotocol/tasks");
  }
}

TEST_CASE("2026-07-28: capabilities travel per request and in server/discover", "[schema][2026]") {
  const json& doc = methods_json();
  CHECK(doc.at("stateless") == true);
  CHECK(doc.at("requestMeta") == json::array({"io.modelcontextprotocol/protocolVersion",
                                              "io.modelcontextprotocol/clientCapabilities"}));
  CHECK(reg().method(kModern, "tools/call")->capability == "server:tools");
  CHECK(reg().method(kModern, "server/discover")->capability.empty());
  CHECK(reg().method(kModern, "notifications/tools/list_changed")->capability == "server:tools.listChanged");
  CHECK(doc.at("methods").at("resources/read").at("cacheable") == true);
  // Extensions are declared by name on both sides; core tasks capabilities are gone.
  CHECK(reg().validate_definition(json::parse(R"({"extensions":{"io.modelcontextprotocol/tasks":{}}})"), kModern,
                                  "ServerCapabilities")
            .valid);
  CHECK_FALSE(reg().validate_definition(json::parse(R"({"extensions":{"io.modelcontextprotocol/tasks":true}})"),
                                        kModern, "ClientCapabilities")
                  .valid);
  CHECK_FALSE(reg().has_definition(kModern, "InitializeResult"));
  CHECK(reg().has_definition(kModern, "DiscoverResult"));
}

TEST_CASE("2026-07-28: hostile input neither crashes nor hangs the validator", "[schema][2026]") {
  // Long opaque strings (requestState is the server's to fill) and deep free-form values.
  const std::string big(2'000'000, 'x');
  json retry = json::parse(request("tools/call", R"("name":"t")"));
  retry["params"]["requestState"] = big;
  retry["params"]["arguments"] = {{"d", json::parse(std::string(5000, '[') + std::string(5000, ']'))}};
  CHECK(reg().validate(retry, kModern, Sender::Client).valid);
  json answer = json::parse(response(R"({"resultType":"complete","content":[]})"));
  answer["result"]["structuredContent"] = json::parse(std::string(5000, '[') + std::string(5000, ']'));
  CHECK(reg().validate(answer, kModern, Sender::Server, "tools/call").valid);
  // Many broken input requests at once: invalid, and the first few issues reported (check.hpp caps them).
  json asks = json::object();
  for (int i = 0; i < 500; ++i) asks["k" + std::to_string(i)] = {{"method", "elicitation/create"}};
  json many = json::parse(response(R"({"resultType":"input_required"})"));
  many["result"]["inputRequests"] = asks;
  auto o = reg().validate(many, kModern, Sender::Server, "tools/call");
  CHECK_FALSE(o.valid);
  CHECK(o.issues.size() == 8);
  CHECK(o.issues.front().pointer.rfind("/result/inputRequests/k", 0) == 0);
}
