// Schema files a user holds (--schema FILE): dialect handling, clear refusals, and the official
// files of every version.
#include "harness/protocol/schema_registry.hpp"
#include "tests/protocol/schema_corpus.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace {

using mcpspec::protocol::Sender;
using mcpspec::protocol::SchemaRegistry;
using nlohmann::json;
namespace fs = std::filesystem;

// A scratch file removed when the test ends.
class TempFile {
 public:
  explicit TempFile(const std::string& content) {
    static int counter = 0;
    path_ = fs::temp_directory_path() /
            ("mcpspec-schema-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".json");
    std::ofstream(path_) << content;
  }
  ~TempFile() {
    std::error_code ec;
    fs::remove(path_, ec);
  }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

// A tiny 2020-12 document in the official naming, enough to exercise selection.
json small_2020_schema() {
  return json::parse(R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$defs": {
      "RequestId": {"type": ["string", "integer"]},
      "JSONRPCRequest": {"type": "object", "required": ["jsonrpc", "id", "method"],
        "properties": {"jsonrpc": {"const": "2.0"}, "id": {"$ref": "#/$defs/RequestId"}, "method": {"type": "string"},
                       "params": {"type": "object"}}},
      "JSONRPCNotification": {"type": "object", "required": ["jsonrpc", "method"],
        "properties": {"jsonrpc": {"const": "2.0"}, "method": {"type": "string"}}},
      "JSONRPCResultResponse": {"type": "object", "required": ["jsonrpc", "id", "result"],
        "properties": {"jsonrpc": {"const": "2.0"}, "id": {"$ref": "#/$defs/RequestId"}, "result": {"type": "object"}}},
      "JSONRPCErrorResponse": {"type": "object", "required": ["jsonrpc", "error"],
        "properties": {"jsonrpc": {"const": "2.0"}, "error": {"type": "object", "required": ["code", "message"]}}},
      "JSONRPCMessage": {"anyOf": [{"$ref": "#/$defs/JSONRPCRequest"}, {"$ref": "#/$defs/JSONRPCNotification"},
                                   {"$ref": "#/$defs/JSONRPCResultResponse"}, {"$ref": "#/$defs/JSONRPCErrorResponse"}]},
      "EchoRequest": {"type": "object", "required": ["method", "params"],
        "properties": {"method": {"const": "echo"}, "params": {"$ref": "#/$defs/EchoParams"}}},
      "EchoParams": {"type": "object", "required": ["text"], "properties": {"text": {"type": "string"}}},
      "EchoResult": {"type": "object", "required": ["echo"], "properties": {"echo": {"type": "string"}}},
      "ClientRequest": {"anyOf": [{"$ref": "#/$defs/EchoRequest"}]},
      "Limited": {"$ref": "#/$defs/EchoParams", "maxProperties": 1, "description": "2020-12 applies the sibling"},
      "When": {"type": "string", "format": "date-time"}
    }
  })");
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("from_file reads a 2020-12 file with $defs and selects definitions by the official names", "[schema]") {
  TempFile file(small_2020_schema().dump());
  auto reg = SchemaRegistry::from_file(file.path(), "draft");
  CHECK(reg->versions() == std::vector<std::string>{"draft"});
  CHECK(reg->has_definition("draft", "EchoRequest"));
  auto notes = reg->notes("draft");
  CHECK(std::find(notes.begin(), notes.end(), "renamed $defs to definitions") != notes.end());

  auto echo = reg->method("draft", "echo");
  REQUIRE(echo);
  CHECK(echo->from == "client");
  CHECK(echo->kind == "request");
  CHECK(echo->params == "EchoParams");
  CHECK(echo->result == "EchoResult");

  auto ok = reg->validate(json::parse(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"text":"hi"}})"), "draft",
                          Sender::Client);
  CHECK(ok.valid);
  CHECK(ok.definition == "EchoRequest");
  auto bad = reg->validate(json::parse(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"text":3}})"), "draft",
                           Sender::Client);
  CHECK_FALSE(bad.valid);
  REQUIRE_FALSE(bad.issues.empty());
  CHECK(bad.issues.front().pointer == "/params/text");
  // Response selection by the answered method's XxxResult definition.
  CHECK_FALSE(reg->validate(json::parse(R"({"jsonrpc":"2.0","id":1,"result":{}})"), "draft", Sender::Server, "echo").valid);
  CHECK(reg->validate(json::parse(R"({"jsonrpc":"2.0","id":1,"result":{"echo":"hi"}})"), "draft", Sender::Server, "echo").valid);
  // The file's unions say echo is client-sent.
  CHECK_FALSE(reg->validate(json::parse(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"text":"x"}})"), "draft",
                            Sender::Server).valid);
  // A $ref with a constraint sibling keeps the sibling (2020-12 semantics).
  CHECK(reg->validate_definition(json::parse(R"({"text":"a"})"), "draft", "Limited").valid);
  CHECK_FALSE(reg->validate_definition(json::parse(R"({"text":"a","more":1})"), "draft", "Limited").valid);
  // date-time is not checked (format is an annotation in 2020-12; valijson's regex is unsafe on long input).
  CHECK(reg->validate_definition(json(std::string(500000, '1')), "draft", "When").valid);
}

TEST_CASE("from_file refuses what it cannot use, saying which file and what is wrong", "[schema]") {
  auto refuse = [](const std::string& content, const std::string& fragment) {
    TempFile file(content);
    std::string message = error_of([&] { SchemaRegistry::from_file(file.path(), "2025-11-25"); });
    INFO(message);
    CHECK(message.find(file.path()) != std::string::npos);
    CHECK(message.find(fragment) != std::string::npos);
  };
  refuse("{ not json", "not valid JSON");
  refuse("[1,2]", "must hold a JSON object");
  refuse(R"({"$schema":"https://example.com/my-dialect","definitions":{"A":{}}})", "unsupported $schema");
  refuse(R"({"definitions":{}})", "no definitions found");
  refuse(R"({"definitions":{"A":{"type":"string"}}})", "no 'JSONRPCMessage' definition");
  refuse(R"({"$schema":"https://json-schema.org/draft/2020-12/schema","$defs":{"A":{"type":"array","prefixItems":[{}]}}})",
         "at /definitions/A/prefixItems: keyword 'prefixItems' is not supported");
  refuse(R"({"$defs":{"A":{"type":"object","unevaluatedProperties":false}}})", "keyword 'unevaluatedProperties'");
  refuse(R"({"$defs":{"A":{"properties":{"x":{"$dynamicRef":"#meta"}}}}})", "at /definitions/A/properties/x/$dynamicRef");
  refuse(R"({"$defs":{"A":{"dependentRequired":{"a":["b"]}}}})", "dependentRequired");
  refuse(R"({"definitions":{"A":{"$ref":"other.json#/definitions/B"}}})", "points outside the file");
  refuse(R"({"definitions":{"A":{"$ref":"#/definitions/Missing"}}})", "'#/definitions/Missing' does not resolve");
  refuse(R"({"definitions":{"A":{"type":"object","properties":{"x":5}}}})", "at /definitions/A/properties/x: expected a schema");
  refuse(R"({"definitions":{"A":{"type":"strung"}}})", "cannot be compiled");
  refuse(R"({"$schema":"https://json-schema.org/draft/2020-12/schema","$defs":{"A":{"items":[{}]}}})",
         "'items' as an array");
  // valijson would apply these to the same value for ever (stack overflow): refused with the reason.
  refuse(R"({"definitions":{"JSONRPCMessage":{"allOf":[{"$ref":"#/definitions/JSONRPCMessage"}]}}})", "an endless loop");
  refuse(R"({"definitions":{"JSONRPCMessage":{"$ref":"#/definitions/B"},"B":{"$ref":"#/definitions/JSONRPCMessage"}}})",
         "only leads back to itself");

  std::string missing = error_of([] { SchemaRegistry::from_file("/nonexistent/schema.json", "2025-11-25"); });
  CHECK(missing.find("/nonexistent/schema.json") != std::string::npos);
  CHECK(missing.find("does not exist") != std::string::npos);
  std::string directory = error_of([] { SchemaRegistry::from_file(fs::temp_directory_path().string(), "2025-11-25"); });
  CHECK(directory.find("not a regular file") != std::string::npos);
  TempFile ok(small_2020_schema().dump());
  CHECK(error_of([&] { SchemaRegistry::from_file(ok.path(), ""); }).find("protocol version") != std::string::npos);
  // Property names that look like keywords are not keywords.
  TempFile names(R"({"definitions":{"JSONRPCMessage":{"type":"object","properties":{"prefixItems":{"type":"string"},
                    "$ref":{"type":"string"}}}}})");
  CHECK(error_of([&] { SchemaRegistry::from_file(names.path(), "x"); }) == "(no error)");
}

TEST_CASE("the official schema files of all four versions load and validate their examples", "[schema]") {
  for (const std::string version : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
    INFO(version);
    auto official = SchemaRegistry::from_file(mcpspec::test::shared_dir() + "/mcp-spec/schema/" + version + "/schema.json", version);
    CHECK(official->has_definition(version, "JSONRPCMessage"));
    auto notes = official->notes(version);
    CHECK((std::find(notes.begin(), notes.end(), "renamed $defs to definitions") != notes.end()) == (version == "2025-11-25"));
    // Methods found in the file match ours, with the file's own definition names.
    const auto& ours = SchemaRegistry::builtin();
    CHECK(official->methods(version).size() == ours.methods(version).size());
    for (const auto& m : ours.methods(version)) {
      auto theirs = official->method(version, m.name);
      REQUIRE(theirs);
      CHECK(theirs->from == m.from);
      CHECK(theirs->kind == m.kind);
      CHECK(theirs->result == m.result);
      CHECK(theirs->capability == m.capability);
    }
    std::size_t valid = 0, total = 0;
    for (const auto& item : mcpspec::test::example_items(ours, version)) {
      ++total;
      valid += official->validate(item.message, version, item.sender, item.answered).valid ? 1 : 0;
    }
    // Every example except the id-less pagination request of the two oldest pages.
    CHECK(valid == total - (version < "2025-06-18" ? 1 : 0));
  }
}

TEST_CASE("our own schema files, read back through from_file, give the built-in verdicts", "[schema]") {
  const auto& ours = SchemaRegistry::builtin();
  for (const auto& version : ours.versions()) {
    INFO(version);
    auto file = SchemaRegistry::from_file(
        mcpspec::test::source_dir() + "/harness/protocol/schemas/" + version + "/messages.schema.json", version);
    for (const auto& item : mcpspec::test::example_items(ours, version)) {
      for (auto& [name, message] : mcpspec::test::variants(item.message)) {
        if (message.is_array()) continue;  // batch rules beyond the schema are built-in only
        INFO(item.where << " " << name << " " << message.dump());
        CHECK(file->validate(message, version, item.sender, item.answered).valid ==
              ours.validate(message, version, item.sender, item.answered).valid);
      }
    }
  }
}

TEST_CASE("the committed schema files are what the generator produces", "[schema]") {
  if (std::system("python3 --version > /dev/null 2>&1") != 0) {
    WARN("python3 not found: generator freshness not checked");
    return;
  }
  const std::string command = "python3 '" + mcpspec::test::source_dir() + "/harness/protocol/schemas/generator/build.py' --check";
  CHECK(std::system(command.c_str()) == 0);
}

TEST_CASE("a user's schema file cannot make validation overflow the stack", "[schema]") {
  // Deep applies 100 nested allOf to each level of an array: a value 500 deep would nest 50 000
  // schema applications in valijson, which overflowed the stack of an optimized build.
  json deep = {{"$ref", "#/definitions/Deep"}};
  for (int i = 0; i < 100; ++i) deep = json{{"allOf", json::array({deep})}};
  json file = {{"definitions", {{"JSONRPCMessage", {{"type", "object"}}}, {"Deep", {{"type", "array"}, {"items", deep}}}}}};
  TempFile path(file.dump());
  auto registry = SchemaRegistry::from_file(path.path(), "x");
  json value = json::array();
  for (int i = 1; i < 500; ++i) value = json::array({value});
  auto outcome = registry->validate_definition(value, "x", "Deep");
  // Not checked, which is neither valid nor invalid: no issue is claimed.
  CHECK(outcome.issues.empty());
  REQUIRE(outcome.unchecked.size() == 1);
  CHECK_THAT(outcome.unchecked.front(), Catch::StartsWith("Deep: ") && Catch::Contains("at most 2048"));
  // A shallow value is checked as usual.
  CHECK(registry->validate_definition(json::array({json::array()}), "x", "Deep").valid);
  CHECK_FALSE(registry->validate_definition(json::array({1}), "x", "Deep").valid);
  CHECK(registry->validate_definition(json::array({1}), "x", "Deep").unchecked.empty());
}

TEST_CASE("a user's schema pattern mcpspec cannot afford leaves the message unchecked, not invalid", "[schema]") {
  json file = {{"definitions",
                {{"JSONRPCMessage", {{"type", "object"}}},
                 {"Named", {{"type", "object"},
                            {"properties", {{"name", {{"type", "string"}, {"pattern", "x{30000}"}}},
                                            {"count", {{"type", "integer"}}}}}}}}}};
  TempFile path(file.dump());
  auto registry = SchemaRegistry::from_file(path.path(), "x");
  SECTION("too costly on a long string: unchecked") {
    auto outcome = registry->validate_definition({{"name", std::string(600, 'y')}}, "x", "Named");
    CHECK(outcome.issues.empty());
    REQUIRE(outcome.unchecked.size() == 1);
    CHECK_THAT(outcome.unchecked.front(), Catch::Contains("too costly") && Catch::Contains("600 bytes"));
  }
  SECTION("a short string is checked: it does not match") {
    auto outcome = registry->validate_definition({{"name", "abc"}}, "x", "Named");
    CHECK_FALSE(outcome.valid);
    CHECK(outcome.unchecked.empty());
    REQUIRE_FALSE(outcome.issues.empty());
    CHECK_THAT(outcome.issues.front().message, Catch::Contains("does not match the pattern"));
  }
  SECTION("invalid elsewhere: still invalid, even where the details cannot all be worked out") {
    // The first pass stops at the wrong count; collecting every error then meets the pattern.
    auto outcome = registry->validate_definition({{"count", "many"}, {"name", std::string(600, 'y')}}, "x", "Named");
    CHECK_FALSE(outcome.valid);
    CHECK(outcome.unchecked.empty());
    REQUIRE_FALSE(outcome.issues.empty());
  }
}
