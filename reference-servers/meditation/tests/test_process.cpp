// The real binary, driven over stdin/stdout as a client would.
#include "notes_folder.hpp"

#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

using nlohmann::json;

namespace {

struct Run {
  int status = -1;
  std::vector<json> replies;
  std::string err;
};

// Sends `lines` to `meditation-mcp ARGS`, closes its input, collects every reply (10 s deadline).
Run run_server(const std::string& args, const std::vector<std::string>& lines, const std::filesystem::path& dir) {
  std::ofstream(dir / "in.jsonl") << [&] {
    std::string s;
    for (const auto& l : lines) s += l + "\n";
    return s;
  }();
  std::string cmd = "cd '" + dir.string() + "' && timeout -s KILL 10 " + MEDITATION_BINARY + " " + args +
                    " < in.jsonl > out.jsonl 2> err.txt";
  Run r;
  int rc = std::system(cmd.c_str());
  r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  std::ifstream out(dir / "out.jsonl");
  for (std::string line; std::getline(out, line);) r.replies.push_back(json::parse(line));
  std::stringstream e;
  e << std::ifstream(dir / "err.txt").rdbuf();
  r.err = e.str();
  return r;
}

std::string req(int id, const std::string& method, const json& params) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump();
}

const std::string kInit = req(0, "initialize", {{"protocolVersion", "2024-11-05"}, {"capabilities", json::object()},
                                                {"clientInfo", {{"name", "t"}, {"version", "1"}}}});

}  // namespace

TEST_CASE("process: initialize, list, read, search as the document shows", "[process]") {
  NotesFolder f;
  f.write("morning-meditation-2024-12-01.md", "---\ntitle: Morning Meditation - Dec 1\n---\n# Morning Meditation\n\nContent here...\n");
  f.write("routine.md", "# Morning Routine\nTea first.");
  auto r = run_server("notes", {kInit, req(1, "resources/list", json::object()),
                                req(2, "resources/read", {{"uri", "meditation://note/morning-meditation-2024-12-01"}}),
                                req(3, "tools/call", {{"name", "search_notes"}, {"arguments", {{"query", "MORNING"}}}}),
                                req(4, "tools/list", json::object())},
                      f.base());
  CHECK(r.status == 0);
  REQUIRE(r.replies.size() == 5);
  CHECK(r.replies[0]["result"]["protocolVersion"] == "2024-11-05");
  CHECK(r.replies[0]["result"]["serverInfo"]["name"] == "meditation-mcp");
  CHECK(r.replies[0]["result"]["capabilities"] == json{{"resources", json::object()}, {"tools", json::object()}});
  auto list = r.replies[1]["result"]["resources"];
  REQUIRE(list.size() == 2);
  CHECK(list[0] == json{{"uri", "meditation://note/morning-meditation-2024-12-01"},
                        {"name", "Morning Meditation - Dec 1"},
                        {"description", "Content here..."},
                        {"mimeType", "text/markdown"}});
  auto content = r.replies[2]["result"]["contents"][0];
  CHECK(content["mimeType"] == "text/markdown");
  CHECK(content["text"].get<std::string>().find("# Morning Meditation\n\nContent here...") != std::string::npos);
  std::string found = r.replies[3]["result"]["content"][0]["text"];
  CHECK(found.rfind("Found 2 notes matching 'MORNING':\n\n1. Morning Meditation - Dec 1 (meditation://note/", 0) == 0);
  CHECK(r.replies[4]["result"]["tools"].size() == 2);
}

TEST_CASE("process: unknown and escaping URIs are -32000 Resource not found with data.uri", "[process]") {
  NotesFolder f;
  f.write("a.md", "# A");
  std::ofstream(f.base() / "secret.md") << "# Secret";
  std::vector<std::string> uris = {"meditation://note/none", "meditation://note/../secret", "meditation://note/%2e%2e/secret",
                                   "meditation://note/a/../../secret", "file:///etc/passwd", "meditation://note/"};
  std::vector<std::string> lines = {kInit};
  for (std::size_t i = 0; i < uris.size(); ++i) lines.push_back(req(static_cast<int>(i) + 1, "resources/read", {{"uri", uris[i]}}));
  auto r = run_server("--notes notes", lines, f.base());
  REQUIRE(r.replies.size() == uris.size() + 1);
  for (std::size_t i = 0; i < uris.size(); ++i) {
    INFO(uris[i]);
    CHECK(r.replies[i + 1]["error"] == json{{"code", -32000}, {"message", "Resource not found"}, {"data", {{"uri", uris[i]}}}});
  }
}

TEST_CASE("process: bad params and tool arguments get clear errors", "[process]") {
  NotesFolder f;
  auto r = run_server("notes", {kInit, req(1, "resources/read", json::object()), req(2, "resources/read", {{"uri", 5}}),
                                req(3, "tools/call", {{"name", "search_notes"}, {"arguments", json::object()}}),
                                req(4, "tools/call", {{"name", "search_notes"}, {"arguments", {{"query", "x"}, {"limit", 0}}}}),
                                req(5, "tools/call", {{"name", "nope"}})},
                      f.base());
  REQUIRE(r.replies.size() == 6);
  CHECK(r.replies[1]["error"]["code"] == -32602);
  CHECK(r.replies[2]["error"]["code"] == -32602);
  CHECK(r.replies[3]["result"]["isError"] == true);
  CHECK(r.replies[3]["result"]["content"][0]["text"] == "Missing required parameter: query");
  CHECK(r.replies[4]["result"]["content"][0]["text"] == "Invalid limit: must be an integer from 1 to 100");
  CHECK(r.replies[5]["error"]["message"] == "Unknown tool: nope");
}

TEST_CASE("process: without a usable folder the server says so and exits 2", "[process]") {
  NotesFolder f;
  auto missing = run_server("missing-folder", {}, f.base());
  CHECK(missing.status == 2);
  CHECK(missing.err.find("missing-folder: no such folder") != std::string::npos);
  auto none = run_server("", {}, f.base());
  CHECK(none.status == 2);
  CHECK(none.err.find("MEDITATION_NOTES_DIR") != std::string::npos);
}

TEST_CASE("process: sync pulls a git repository fast-forward and reports the changes", "[process][git]") {
  NotesFolder f;
  std::string base = "'" + f.base().string() + "'";
  auto sh = [&](const std::string& c) { return std::system(("cd " + base + " && " + c + " >/dev/null 2>&1").c_str()); };
  REQUIRE(sh("git init -q origin && cd origin && printf '# One\\n' > one.md && git add . && "
             "git -c user.name=t -c user.email=t@t commit -qm one") == 0);
  std::filesystem::remove_all(f.path());
  REQUIRE(sh("git clone -q origin notes") == 0);
  REQUIRE(sh("cd origin && printf '# Two\\n' > two.md && printf '# One\\nedited\\n' > one.md && git add . && "
             "git -c user.name=t -c user.email=t@t commit -qm two") == 0);
  auto r = run_server("notes", {kInit, req(1, "tools/call", {{"name", "sync_repository"}}),
                                req(2, "resources/list", json::object())},
                      f.base());
  REQUIRE(r.replies.size() == 3);
  std::string text = r.replies[1]["result"]["content"][0]["text"];
  INFO(text);
  CHECK(r.replies[1]["result"].value("isError", false) == false);
  CHECK(text.find("Synced: 1 added, 1 changed, 0 removed; 2 notes indexed.") == 0);
  CHECK(text.find("git pull --ff-only: ") != std::string::npos);
  CHECK(r.replies[2]["result"]["resources"].size() == 2);
}

TEST_CASE("process: a failing pull is an error result and the folder is re-scanned anyway", "[process][git]") {
  NotesFolder f;
  std::string base = "'" + f.base().string() + "'";
  // A repository whose remote does not exist.
  REQUIRE(std::system(("cd " + base + "/notes && git init -q && git remote add origin ../nowhere && "
                       "printf '# A\\n' > a.md && git add . && git -c user.name=t -c user.email=t@t commit -qm a && "
                       "git branch -q -u origin/master 2>/dev/null; true").c_str()) == 0);
  auto r = run_server("notes", {kInit, req(1, "tools/call", {{"name", "sync_repository"}})}, f.base());
  REQUIRE(r.replies.size() == 2);
  std::string text = r.replies[1]["result"]["content"][0]["text"];
  INFO(text);
  CHECK(r.replies[1]["result"]["isError"] == true);
  CHECK(text.find("git pull --ff-only failed") != std::string::npos);
  CHECK(text.find("1 notes indexed") != std::string::npos);
}
