#include "harness/fuzz/mutations.hpp"

#include "harness/util/json_text.hpp"

#include <algorithm>
#include <limits>
#include <vector>

namespace mcpspec::fuzz {

using nlohmann::json;

namespace {

// Where a mutation may land: JSON pointers to every value (bounded walk).
void collect(const json& v, const std::string& ptr, std::vector<std::string>& out, int depth) {
  if (out.size() >= 256 || depth > 12) return;
  out.push_back(ptr);
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it) {
      std::string k = it.key(), esc;
      for (char c : k) esc += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
      collect(*it, ptr + "/" + esc, out, depth + 1);
    }
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size() && i < 16; ++i) collect(v[i], ptr + "/" + std::to_string(i), out, depth + 1);
  }
}

json boundary_number(Rng& rng) {
  switch (rng.below(16)) {
    case 0: return 0;
    case 1: return -1;
    case 2: return std::numeric_limits<std::int32_t>::max();
    case 3: return std::numeric_limits<std::int32_t>::min();
    case 4: return 4294967296LL;
    case 5: return 9007199254740993LL;  // 2^53 + 1: not a double
    case 6: return std::numeric_limits<std::int64_t>::max();
    case 7: return std::numeric_limits<std::int64_t>::min();
    case 8: return std::numeric_limits<std::uint64_t>::max();
    case 9: return 1e308;
    case 10: return -1e308;
    case 11: return 1.5;
    case 12: return -0.0;
    case 13: return 5e-324;
    case 14: return 1;
    default: return 100000000;
  }
}

json wrong_type(const json& v, Rng& rng) {
  std::vector<json> options = {nullptr, true, false, "", "fuzz", json::array(), json::object(), 42, -7, 3.25,
                               json::array({1, "two", nullptr}), json{{"unexpected", true}}};
  // Prefer a value of another type than the one there.
  for (int tries = 0; tries < 4; ++tries) {
    const json& o = options[rng.below(options.size())];
    if (o.type() != v.type()) return o;
  }
  return nullptr;
}

std::string odd_string(Rng& rng) {
  switch (rng.below(14)) {
    case 0: return std::string(1, '\0');
    case 1: return "line\nbreak\r\nand\ttab";
    case 2: return "\x01\x02\x1f control";
    case 3: return "\xEF\xBF\xBF";                  // U+FFFF
    case 4: return "\xF0\x9F\x98\x80 emoji";        // U+1F600
    case 5: return "\xE2\x80\xAE right-to-left";    // U+202E
    case 6: return "../../../../etc/passwd";
    case 7: return "%s%s%n%x";
    case 8: return "${env.HOME} $(id) `id`";
    case 9: return std::string(rng.between(1, 20000), 'A');
    case 10: return "\xC3\xA9\xE4\xB8\xAD\xF0\x90\x8D\x88";  // e-acute, CJK, Gothic
    case 11: return " ";
    case 12: return "null";
    default: return "test://" + std::string(rng.between(100, 5000), 'x');
  }
}

json huge_value(Rng& rng) {
  switch (rng.below(4)) {
    case 0: {
      // A megabyte is where line limits and buffers break, but each one costs milliseconds on
      // both ends (they were 86 % of the bytes sent when a third of huge strings had that size):
      // one in sixteen is that large, the rest 1 KiB or 64 KiB.
      std::size_t n = rng.below(16) == 0 ? std::size_t{1} << 20 : rng.chance(50) ? 1024 : 65536;
      return std::string(n, 'Z');
    }
    case 1: {
      json a = json::array();
      long long n = rng.pick(std::vector<long long>{1000, 10000, 50000});
      for (long long i = 0; i < n; ++i) a.push_back(i);
      return a;
    }
    case 2: {
      json o = json::object();
      long long n = rng.pick(std::vector<long long>{100, 2000});
      for (long long i = 0; i < n; ++i) o["k" + std::to_string(i)] = i;
      return o;
    }
    default: {
      json a = json::array();
      for (int i = 0; i < 2000; ++i) a.push_back("item-" + std::to_string(i));
      return a;
    }
  }
}

json odd_id(Rng& rng, const IdPool& ids) {
  switch (rng.below(12)) {
    case 0: return nullptr;
    case 1: return std::numeric_limits<std::int64_t>::max();
    case 2: return -1;
    case 3: return 0;
    case 4: return "";
    case 5: return std::string(rng.between(100, 3000), '9');
    case 6: return 1.5;
    case 7: return true;
    case 8: return json{{"id", 1}};
    case 9: return json::array({1});
    case 10: return "12";  // a string that looks like a number
    default:
      if (!ids.recent.empty()) return ids.recent[rng.below(ids.recent.size())];
      return 7777;
  }
}

std::string odd_method(const std::string& m, Rng& rng) {
  switch (rng.below(9)) {
    case 0: return "mcpspec.fuzz/unknown-" + std::to_string(rng.below(1000));
    case 1: {
      std::string s = m;
      std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
      return s + "X";  // changed case is another (unknown) method; the X keeps it unknown if it had no letters
    }
    case 2: return m + "/";
    case 3: return "";
    case 4: return m.substr(0, m.size() / 2) + std::string(1, static_cast<char>(rng.between(1, 31))) + m.substr(m.size() / 2);
    case 5: return std::string(rng.between(300, 5000), 'm');
    case 6: return "rpc.discover";
    case 7: return "notifications/" + m;
    default: return m + " ";
  }
}

const char* kPlaceholder = "\x01mcpspec-fuzz-deep\x01";

}  // namespace

std::string deep_text(std::size_t depth, bool objects) {
  std::string s;
  s.reserve(depth * (objects ? 6 : 2) + 4);
  for (std::size_t i = 0; i < depth; ++i) s += objects ? "{\"a\":" : "[";
  s += "1";
  for (std::size_t i = 0; i < depth; ++i) s += objects ? "}" : "]";
  return s;
}

std::string mutate_json(json& message, std::string& bytes, Rng& rng, const IdPool& ids) {
  std::vector<std::string> ptrs;
  collect(message, "", ptrs, 0);
  std::string at = ptrs.size() > 1 ? ptrs[1 + rng.below(ptrs.size() - 1)] : "";
  json::json_pointer p(at);
  switch (rng.below(13)) {
    case 0:
      message[p] = boundary_number(rng);
      return "boundary-number at " + at;
    case 1:
      message[p] = wrong_type(message[p], rng);
      return "wrong-type at " + at;
    case 2:
      message[p] = odd_string(rng);
      return "odd-string at " + at;
    case 3:
      message[p] = huge_value(rng);
      return "huge-value at " + at;
    case 4: {
      // Deep nesting is built as text: holding it as a json value would cost our own stack.
      std::size_t depth = static_cast<std::size_t>(rng.pick(std::vector<long long>{33, 40, 64, 200, 1000, 3000}));
      bool objects = rng.chance(50);
      message[p] = kPlaceholder;
      std::string text = message.dump(-1, ' ', false, json::error_handler_t::replace);
      std::string quoted = json(kPlaceholder).dump();
      auto pos = text.find(quoted);
      if (pos != std::string::npos) text.replace(pos, quoted.size(), deep_text(depth, objects));
      bytes = text;
      return "deep-nesting " + std::to_string(depth) + " at " + at;
    }
    case 5: {
      if (at.empty() || ptrs.size() < 2) return "none";
      auto parent = p.parent_pointer();
      if (message[parent].is_object()) message[parent].erase(p.back());
      else if (message[parent].is_array() && !message[parent].empty()) message[parent].erase(message[parent].size() - 1);
      return "drop " + at;
    }
    case 6: {
      if (!message.is_object()) return "none";
      json& target = message.contains("params") && message["params"].is_object() ? message["params"] : message;
      const char* keys[] = {"__proto__", "constructor", "extra", "_meta", "\xE2\x98\x83", ""};
      target[keys[rng.below(6)]] = wrong_type(nullptr, rng);
      return "add member";
    }
    case 7:
    case 8:
      if (!message.is_object()) return "none";
      if (rng.chance(70)) message["id"] = odd_id(rng, ids);
      else message.erase("id");
      return "id-game " + compact(message.value("id", json("(removed)"))).substr(0, 40);
    case 9:
      if (!message.is_object() || !message.contains("method") || !message["method"].is_string()) return "none";
      message["method"] = odd_method(message["method"].get<std::string>(), rng);
      return "method-game";
    case 10: {
      if (!message.is_object()) return "none";
      json choices[] = {"1.0", 2.0, nullptr, "2.0 ", json::object()};
      if (rng.chance(25)) message.erase("jsonrpc");
      else message["jsonrpc"] = choices[rng.below(5)];
      return "jsonrpc-game";
    }
    case 11: {
      if (!message.is_object()) return "none";
      json choices[] = {json::array({1, 2}), "params", nullptr, 7, json::array()};
      message["params"] = choices[rng.below(5)];
      return "params-not-object";
    }
    default: {
      // Empty containers and empty strings: the quiet boundary.
      if (message[p].is_string()) message[p] = "";
      else if (message[p].is_array()) message[p] = json::array();
      else if (message[p].is_object()) message[p] = json::object();
      else message[p] = 0;
      return "empty at " + at;
    }
  }
}

std::string mutate_argument(json& args, Rng& rng) {
  std::vector<std::string> ptrs;
  collect(args, "", ptrs, 0);
  if (ptrs.size() < 2) return "none";
  std::string at = ptrs[1 + rng.below(ptrs.size() - 1)];
  json& v = args[json::json_pointer(at)];
  if (v.is_string()) {
    // Long text is where copies, buffers and echoes break; odd text is where escaping does.
    v = rng.chance(50) ? json(std::string(static_cast<std::size_t>(rng.pick(std::vector<long long>{1001, 4096, 65536})), 'L'))
                       : json(odd_string(rng));
  } else if (v.is_number()) {
    v = boundary_number(rng);
  } else if (v.is_array() || v.is_object()) {
    v = rng.chance(50) ? huge_value(rng) : wrong_type(v, rng);
  } else {
    v = wrong_type(v, rng);
  }
  return "argument boundary at " + at;
}

std::string mutate_bytes(std::string& bytes, Rng& rng) {
  std::string name;
  switch (rng.below(10)) {
    case 0:
      bytes = bytes.substr(0, rng.below(bytes.size() + 1));
      name = "truncated";
      break;
    case 1: {
      // Invalid UTF-8 inside the first string value.
      auto q = bytes.find('"', bytes.find(':') == std::string::npos ? 0 : bytes.find(':'));
      const char* bad[] = {"\xC3\x28", "\xFF", "\xED\xA0\x80", "\xF8\x88\x80\x80\x80", "\xC0\xAF"};
      bytes.insert(q == std::string::npos ? 0 : q + 1, bad[rng.below(5)]);
      name = "invalid-utf8";
      break;
    }
    case 2:
      if (!bytes.empty() && bytes[0] == '{') bytes.insert(1, "\"id\":\"dup\",\"method\":\"dup\",");
      name = "duplicate-keys";
      break;
    case 3:
      bytes += rng.chance(50) ? " trailing" : bytes;
      name = "trailing-garbage";
      break;
    case 4:
      bytes = "\xEF\xBB\xBF" + bytes;
      name = "bom";
      break;
    case 5:
      bytes.insert(rng.below(bytes.size() + 1), std::string(1, '\0'));
      name = "nul-byte";
      break;
    case 6:
      for (int i = 0; i < 4 && !bytes.empty(); ++i) bytes[rng.below(bytes.size())] = static_cast<char>(rng.below(256));
      name = "byte-flips";
      break;
    case 7: {
      const char* tiny[] = {"{}", "[]", "null", "1", "\"x\"", "{\"jsonrpc\":\"2.0\"}", "[{}]", "{\"jsonrpc\":\"2.0\",\"id\":1}"};
      bytes = tiny[rng.below(8)];
      name = "tiny-json";
      break;
    }
    case 8:
      bytes += "\r";
      name = "carriage-return";
      break;
    default:
      bytes = "{" + bytes;
      name = "unbalanced";
      break;
  }
  // The framing is ours: a newline would split the message in two.
  std::replace(bytes.begin(), bytes.end(), '\n', ' ');
  return name;
}

}  // namespace mcpspec::fuzz
