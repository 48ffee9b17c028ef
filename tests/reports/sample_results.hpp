#pragma once
// Hand-built results for the report tests: one of every verdict, with the hostile text a real
// target can produce (quotes, markup characters, control characters, invalid UTF-8, huge lines).
#include "harness/results/result.hpp"
#include "reports/run_facts.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace mcpspec::testing {

// Text that breaks naive writers: XML/Markdown markup, quotes, ESC and other C0 controls, a NUL,
// DEL, a C1 control, invalid UTF-8 (lone continuation byte, overlong '/', truncated sequence, 0xFF),
// and a literal CDATA terminator.
inline std::string hostile_text() {
  return std::string("tool \"x\" <b>&amp; 'y'</b> ]]> | *star* `tick` \x1b[31mred\x1b[0m \x01\x02 nul:") +
         std::string(1, '\0') + "del:\x7f c1:\xc2\x9b bad:\x80\xc0\xaf\xe2\x82 \xff end";
}

inline std::vector<ScenarioResult> sample_results() {
  std::vector<ScenarioResult> out;
  auto base = [](const std::string& id, const std::string& area, Verdict v) {
    ScenarioResult r;
    r.id = id;
    r.title = "Title of " + id;
    r.file = "scenarios/" + id + ".json";
    r.area = area;
    r.protocol = "2025-11-25";
    r.negotiated = "2025-11-25";
    r.role = "server";
    r.transport = "stdio";
    r.requirements = {"REQ-1"};
    r.section = "basic/lifecycle";
    r.tags = {area};
    r.verdict = v;
    r.duration_ms = 12.3;
    return r;
  };

  out.push_back(base("mcp/lifecycle/initialize-basic", "lifecycle", Verdict::Pass));

  auto fail = base("mcp/tools/call-unknown-tool", "tools", Verdict::Fail);
  fail.requirements = {"TOOL-17"};
  Finding f;
  f.requirements = {"TOOL-17"};
  f.level = Level::Must;
  f.message = "unknown tool answered with a result instead of an error: " + hostile_text();
  f.step = 3;
  f.expected = "{\n  \"error\": {\n    \"code\": -32602\n  }\n}";
  f.received = "{\n  \"result\": {\"content\": [\"" + hostile_text() + "\"]}\n}";
  f.diff = "/error: missing (expected an object)\n/result: present, not expected";
  fail.findings.push_back(f);
  for (int i = 0; i < 30; ++i) {
    WireEntry w;
    w.t_ms = i * 1.5;
    w.dir = i % 3 == 0 ? WireEntry::Dir::Out : (i % 3 == 1 ? WireEntry::Dir::In : WireEntry::Dir::Stderr);
    w.text = "frame-" + std::to_string(i) + " " + (i == 29 ? hostile_text() : std::string("{\"jsonrpc\":\"2.0\"}"));
    fail.wire.push_back(w);
  }
  WireEntry huge;
  huge.t_ms = 50;
  huge.dir = WireEntry::Dir::In;
  huge.text = "HUGE" + std::string(100000, 'x') + "TAIL";
  fail.wire.push_back(huge);
  out.push_back(fail);

  auto warn = base("mcp/tools/list-pagination", "tools", Verdict::Warn);
  warn.level = Level::Should;
  Finding wf;
  wf.requirements = {"TOOL-04"};
  wf.level = Level::Should;
  wf.message = "nextCursor is an empty string";
  wf.step = 1;
  warn.findings.push_back(wf);
  out.push_back(warn);

  auto skip = base("mcp/resources/read-text", "resources", Verdict::Skip);
  skip.reason = "capability 'resources' not declared by the server";
  skip.duration_ms = 0;
  out.push_back(skip);

  auto xfail = base("mcp/prompts/get-missing", "prompts", Verdict::XFail);
  xfail.reason = "legacy dialect answers -32601";
  Finding xf;
  xf.message = "wrong error code -32601";
  xfail.findings.push_back(xf);
  out.push_back(xfail);

  auto xpass = base("mcp/prompts/list-basic", "prompts", Verdict::XPass);
  xpass.reason = "was broken in 1.2";
  out.push_back(xpass);

  auto error = base("mcp/lifecycle/shutdown-stdin", "lifecycle", Verdict::Error);
  error.reason = "could not spawn the target: <no such file> & \"quotes\"";
  WireEntry ev;
  ev.dir = WireEntry::Dir::Event;
  ev.text = "spawn failed";
  error.wire.push_back(ev);
  out.push_back(error);
  return out;
}

inline RunInfo sample_info() {
  RunInfo info;
  info.mcpspec_version = "0.1.0-test";
  info.target = "node server.js --name 'it''s'";
  info.started_at = "2025-01-02T03:04:05Z";
  info.duration_ms = 4321;
  info.protocols = {"2025-11-25"};
  info.stale_baseline = {"mcp/old/* [any protocol]"};
  return info;
}

// A fresh directory per call, removed by the caller's TempDir.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    static int n = 0;
    path = std::filesystem::temp_directory_path() /
           ("mcpspec-reports-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

inline std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_all(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// True when `s` is well-formed UTF-8 (independent of the code under test: a plain decoder).
inline bool is_valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    std::uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (std::size_t k = 1; k < n; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (b & 0x3F);
    }
    const std::uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n;
  }
  return true;
}

}  // namespace mcpspec::testing
