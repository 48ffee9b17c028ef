#include "harness/results/result.hpp"

namespace mcpspec {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Pass: return "pass";
    case Verdict::Fail: return "fail";
    case Verdict::Warn: return "warn";
    case Verdict::Skip: return "skip";
    case Verdict::XFail: return "xfail";
    case Verdict::XPass: return "xpass";
    case Verdict::Error: return "error";
  }
  return "error";
}

const char* verdict_label(Verdict v) {
  switch (v) {
    case Verdict::Pass: return "PASS";
    case Verdict::Fail: return "FAIL";
    case Verdict::Warn: return "WARN";
    case Verdict::Skip: return "SKIP";
    case Verdict::XFail: return "XFAIL";
    case Verdict::XPass: return "XPASS";
    case Verdict::Error: return "ERROR";
  }
  return "ERROR";
}

const char* level_name(Level l) {
  switch (l) {
    case Level::Must: return "MUST";
    case Level::Should: return "SHOULD";
    case Level::May: return "MAY";
    case Level::Info: return "INFO";
  }
  return "INFO";
}

const char* wire_dir_symbol(WireEntry::Dir d) {
  switch (d) {
    case WireEntry::Dir::Out: return ">";
    case WireEntry::Dir::In: return "<";
    case WireEntry::Dir::Stderr: return "!";
    case WireEntry::Dir::Event: return "#";
  }
  return "#";
}

Verdict verdict_from(const std::vector<Finding>& findings) {
  bool should = false;
  for (const auto& f : findings) {
    if (f.level == Level::Must) return Verdict::Fail;
    if (f.level == Level::Should) should = true;
  }
  return should ? Verdict::Warn : Verdict::Pass;
}

}  // namespace mcpspec
