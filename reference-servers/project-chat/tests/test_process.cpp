// The real project_chat binary against the real meditation-mcp, and against servers that fail.
#include "chat_options.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

class Workspace {
 public:
  Workspace() {
    std::string pattern = (fs::temp_directory_path() / "project-chat-test-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    fs::create_directory(dir_ / "notes");
    note("morning.md", "# Morning Meditation\n\nBreath counting at dawn.\n");
    note("tea.md", "# Tea Ritual\n\nSlow tea, then sit.\n");
  }
  ~Workspace() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  void note(const std::string& name, const std::string& text) const { std::ofstream(dir_ / "notes" / name) << text; }
  const fs::path& dir() const { return dir_; }

  struct Result {
    int status = -1;
    std::string out, err;
    double seconds = 0;
  };
  // Runs project_chat with `args` (shell words) in the workspace, stdin from `input`.
  Result run(const std::string& args, const std::string& input = "") const {
    std::ofstream(dir_ / "in.txt") << input;
    std::string cmd = "cd '" + dir_.string() + "' && HOME='" + dir_.string() + "' timeout -s KILL 20 " + PROJECT_CHAT_BINARY +
                      " " + args + " < in.txt > out.txt 2> err.txt";
    auto start = std::chrono::steady_clock::now();
    int rc = std::system(cmd.c_str());
    Result r;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    r.out = slurp("out.txt");
    r.err = slurp("err.txt");
    return r;
  }
  std::string server() const { return std::string("--server '") + MEDITATION_BINARY + " --notes notes'"; }
  std::string slurp(const std::string& name) const {
    std::stringstream s;
    s << std::ifstream(dir_ / name).rdbuf();
    return s.str();
  }

 private:
  fs::path dir_;
};

}  // namespace

TEST_CASE("project_chat list, read, search and sync against meditation-mcp", "[process]") {
  Workspace w;
  auto list = w.run(w.server() + " list");
  CHECK(list.status == 0);
  CHECK(list.out ==
        "meditation://note/morning\tMorning Meditation\tBreath counting at dawn.\n"
        "meditation://note/tea\tTea Ritual\tSlow tea, then sit.\n");
  auto read = w.run(w.server() + " read meditation://note/tea");
  CHECK(read.status == 0);
  CHECK(read.out == "# Tea Ritual\n\nSlow tea, then sit.\n");
  auto search = w.run(w.server() + " search slow TEA --limit 5");
  CHECK(search.status == 0);
  CHECK(search.out == "Found 1 note matching 'slow TEA':\n\n1. Tea Ritual (meditation://note/tea)\n");
  w.note("evening.md", "# Evening\n");
  auto sync = w.run(w.server() + " sync");
  CHECK(sync.status == 0);
  // A fresh server scanned the folder at its start, evening.md included: nothing new for sync.
  CHECK(sync.out.rfind("Synced: 0 added, 0 changed, 0 removed; 3 notes indexed.", 0) == 0);
  CHECK(list.err.empty());
}

TEST_CASE("project_chat: an error answer is one line on stderr and exit status 1", "[process]") {
  Workspace w;
  auto r = w.run(w.server() + " read meditation://note/missing");
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err == "project_chat: Resource not found (-32000): meditation://note/missing\n");
}

TEST_CASE("project_chat: a server that stays unavailable gives exit status 3 and the reason", "[process]") {
  Workspace w;
  auto r = w.run("--server 'echo notes folder missing >&2; exit 4' list");
  CHECK(r.status == 3);
  CHECK(r.seconds < 6);  // bounded: four retries of at most 1 s (plus jitter)
  std::string last = r.err.substr(r.err.rfind("project_chat: server unavailable"));
  CHECK(last == "project_chat: server unavailable: gave up after 5 attempts: the server exited with status 4 "
                "(stderr: notes folder missing)\n");
  CHECK(r.err.find("retrying in") != std::string::npos);
}

TEST_CASE("project_chat: a silent server is given up after the initialize timeout", "[process]") {
  Workspace w;
  auto r = w.run("--server 'exec cat >/dev/null' --initialize-timeout-ms 100 list");
  CHECK(r.status == 3);
  CHECK(r.err.find("initialize got no answer within 100 ms") != std::string::npos);
}

TEST_CASE("project_chat interactive mode: commands, unknown input, history", "[process]") {
  Workspace w;
  auto r = w.run(w.server() + " shell --history hist.txt", "help\nlist\nsearch ritual\nread meditation://note/nope\nfly away\nquit\n");
  CHECK(r.status == 0);
  CHECK(r.out.find("read URI") != std::string::npos);
  CHECK(r.out.find("meditation://note/tea\tTea Ritual") != std::string::npos);
  CHECK(r.out.find("Found 1 note matching 'ritual'") != std::string::npos);
  CHECK(r.out.find("not understood: fly away") != std::string::npos);
  CHECK(r.err.find("Resource not found") != std::string::npos);
  CHECK(w.slurp("hist.txt").find("search\\040ritual") != std::string::npos);  // libedit's file format
}

TEST_CASE("project_chat: bad command lines and contexts are usage errors", "[process]") {
  Workspace w;
  CHECK(w.run("read").status == 2);
  CHECK(w.run("--resource-timeout-ms 0 list").status == 2);
  auto bad = w.run("drive --context '{not json'");
  CHECK(bad.status == 2);
  CHECK(bad.err.find("not valid JSON") != std::string::npos);
  auto opt = w.run("drive --context '{\"options\": {\"cache_ttl_ms\": -1}}'");
  CHECK(opt.status == 2);
  CHECK(opt.err.find("cache_ttl_ms must be an integer") != std::string::npos);
}

TEST_CASE("project_chat drive: actions run against the server, then the session ends in order", "[process]") {
  Workspace w;
  auto r = w.run(w.server() + " drive --context '{\"actions\": [{\"do\": \"list\"}, {\"do\": \"search\", \"query\": \"dawn\"}, "
                              "{\"do\": \"bogus\"}, {\"do\": \"exit\"}]}'");
  CHECK(r.status == 0);
  CHECK(r.out.find("meditation://note/morning") != std::string::npos);
  CHECK(r.out.find("Found 1 note matching 'dawn'") != std::string::npos);
  CHECK(r.err.find("unknown action {\"do\":\"bogus\"} ignored") != std::string::npos);
  CHECK(r.seconds < 5);
}

TEST_CASE("settings from a context are checked and applied", "[options]") {
  project_chat::ChatOptions o;
  project_chat::apply_settings(o, mcpref::Json{{"cache_ttl_ms", 0}, {"tool_timeout_ms", 1500}});
  CHECK(o.cache_ttl.count() == 0);
  CHECK(o.tool_timeout.count() == 1500);
  CHECK_THROWS_WITH(project_chat::apply_settings(o, mcpref::Json{{"resource_timeout_ms", "fast"}}),
                    Catch::Contains("resource_timeout_ms must be an integer from 1"));
  CHECK_THROWS_AS(project_chat::apply_settings(o, mcpref::Json::array()), std::invalid_argument);
}
