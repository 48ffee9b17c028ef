// Configuration, rules and groups files: what is accepted, and errors that name file and place.
#include "build_output.hpp"
#include "config.hpp"
#include "grouping_rules.hpp"
#include "init_command.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

using mcpref::Json;

namespace {

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "tamamo-test-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

void write(const std::filesystem::path& file, const std::string& text) { std::ofstream(file) << text; }

}  // namespace

TEST_CASE("mcpServers entries: stdio command/args/env, http and websocket urls, per-server timeouts") {
  Json doc = Json::parse(R"({"mcpServers": {
      "files": {"command": "npx", "args": ["-y", "fs"], "env": {"ROOT": "/tmp"}, "timeoutMs": 500},
      "web": {"url": "http://127.0.0.1:9/mcp", "transport": "http"},
      "sock": {"url": "ws://127.0.0.1:9/mcp"}},
    "discovery": {"timeoutMs": 1500}, "grouping": {"schemaSimilarity": 0.75}})");
  tamamo::Config c = tamamo::parse_config(doc, "cfg");
  REQUIRE(c.servers.size() == 3);
  CHECK(c.servers[0].argv == std::vector<std::string>{"npx", "-y", "fs"});
  CHECK(c.servers[0].env.at("ROOT") == "/tmp");
  CHECK(c.servers[0].timeout == std::chrono::milliseconds(500));
  CHECK(c.servers[1].transport == tamamo::UpstreamTransport::Http);
  CHECK(c.servers[2].transport == tamamo::UpstreamTransport::WebSocket);
  CHECK(c.discovery_timeout == std::chrono::milliseconds(1500));
  CHECK(c.grouping.schema_similarity == 0.75);
  // What is written reads back the same.
  tamamo::Config again = tamamo::parse_config(tamamo::config_to_json(c), "cfg");
  CHECK(again.servers[0].argv == c.servers[0].argv);
  CHECK(again.servers[2].url == "ws://127.0.0.1:9/mcp");
}

TEST_CASE("bad configuration values are refused with the file and JSON pointer") {
  auto error_of = [](const char* text) {
    try {
      tamamo::parse_config(Json::parse(text), "tamamo-x.config.json");
    } catch (const tamamo::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  CHECK(error_of(R"({})") == "tamamo-x.config.json: 'mcpServers' must be an object (name -> server)");
  CHECK(error_of(R"({"mcpServers": {"a": {"args": []}}})") == "tamamo-x.config.json: /mcpServers/a: 'command' is required");
  CHECK(error_of(R"({"mcpServers": {"a": {"command": "x", "args": [1]}}})") == "tamamo-x.config.json: /mcpServers/a/args/0: must be a string");
  CHECK(error_of(R"({"mcpServers": {"a": {"url": "ftp://x"}}})") == "tamamo-x.config.json: /mcpServers/a/url: an http server needs an http:// URL");
  CHECK(error_of(R"({"mcpServers": {"a": {"url": "http://x", "transport": "sse"}}})") ==
        "tamamo-x.config.json: /mcpServers/a/transport: 'sse' is not supported (use http or websocket)");
  CHECK(error_of(R"({"mcpServers": {}, "discovery": {"timeoutMs": 0}})") ==
        "tamamo-x.config.json: /discovery/timeoutMs: must be an integer number of milliseconds from 1 to 3600000");
  CHECK(error_of(R"({"mcpServers": {"a b": {"command": "x"}}})").find("server name 'a b'") != std::string::npos);
}

TEST_CASE("command-line servers: NAME=COMMAND, NAME=JSON argv, NAME=URL") {
  CHECK(tamamo::upstream_from_shell_option("t=prog --x 'a b'").shell == "prog --x 'a b'");
  CHECK(tamamo::upstream_from_argv_option(R"(h=["/bin/x","bridge","s"])").argv.size() == 3);
  CHECK(tamamo::upstream_from_url_option("w=ws://127.0.0.1:1/mcp").transport == tamamo::UpstreamTransport::WebSocket);
  CHECK_THROWS_WITH(tamamo::upstream_from_shell_option("nocommand"), Catch::Contains("is not NAME=VALUE"));
  CHECK_THROWS_WITH(tamamo::upstream_from_argv_option("h=[1]"), Catch::Contains("every element must be a string"));
}

TEST_CASE("rules files: names end in _agent, descriptions start with Specialized agent, a rule must match something") {
  CHECK_NOTHROW(tamamo::parse_rules(Json::parse(R"({"groups": [{"name": "web_agent", "prefixes": ["web_"]}]})"), "r"));
  CHECK_THROWS_WITH(tamamo::parse_rules(Json::parse(R"({"groups": [{"name": "web", "prefixes": ["w"]}]})"), "r"),
                    "r: /groups/0/name: must be lower-case letters, digits and '_', ending in _agent");
  CHECK_THROWS_WITH(tamamo::parse_rules(Json::parse(R"({"groups": [{"name": "web_agent", "description": "Does web", "tools": ["x"]}]})"), "r"),
                    Catch::Contains("/groups/0/description: must be a string starting with \"Specialized agent\""));
  CHECK_THROWS_WITH(tamamo::parse_rules(Json::parse(R"({"groups": [{"name": "web_agent"}]})"), "r"),
                    Catch::Contains("can hold nothing"));
  CHECK_THROWS_WITH(tamamo::parse_rules(Json::parse(R"({"groups": [{"name": "a_agent", "tools": ["x"]}, {"name": "a_agent", "tools": ["y"]}]})"), "r"),
                    Catch::Contains("used twice"));
}

TEST_CASE("init imports the servers of .mcp.json, skips ones it cannot reach, and keeps an existing config") {
  TempDir dir;
  write(dir.path / ".mcp.json", R"({"mcpServers": {"fs": {"command": "fs-server", "args": ["--root", "."]},
                                                      "old": {"type": "sse", "url": "http://x/sse"},
                                                      "web": {"type": "http", "url": "http://127.0.0.1:1/mcp"}}})");
  std::ostringstream out, err;
  REQUIRE(tamamo::run_init(dir.path, false, out, err) == 0);
  CHECK(err.str().find("/mcpServers/old/transport") != std::string::npos);
  tamamo::Config c = tamamo::load_config(dir.path / tamamo::kConfigFileName);
  REQUIRE(c.servers.size() == 2);
  CHECK(c.servers[0].name == "fs");
  CHECK(c.servers[1].transport == tamamo::UpstreamTransport::Http);
  std::ostringstream out2, err2;
  CHECK(tamamo::run_init(dir.path, false, out2, err2) == 1);
  CHECK(err2.str().find("already exists") != std::string::npos);
  CHECK(tamamo::run_init(dir.path, true, out2, err2) == 0);
}

TEST_CASE("a missing configuration or groups file names itself and the command to run") {
  TempDir dir;
  CHECK_THROWS_WITH(tamamo::load_config(dir.path / "tamamo-x.config.json"), Catch::Contains("run `tamamo-x-mcp init` first"));
  CHECK_THROWS_WITH(tamamo::load_groups(dir.path / "groups.json"), Catch::Contains("run `tamamo-x-mcp build` first"));
  write(dir.path / "groups.json", R"({"groups": [{"name": "a_agent", "description": "Specialized agent", "tools": [{"server": "s"}]}]})");
  CHECK_THROWS_WITH(tamamo::load_groups(dir.path / "groups.json"), Catch::Contains("/groups/0/tools/0: needs server, name and an inputSchema object"));
}
