#include "harness/fuzz/fuzz_message.hpp"

#include "harness/protocol/message.hpp"
#include "harness/protocol/era.hpp"
#include "harness/protocol/schema_registry.hpp"
#include "harness/protocol/versions.hpp"

#include <algorithm>
#include <cctype>

namespace mcpspec::fuzz {

using nlohmann::json;

int demanded_code(Demand d) {
  switch (d) {
    case Demand::ParseError: return -32700;
    case Demand::InvalidRequest: return -32600;
    case Demand::UnknownMethod: return -32601;
    case Demand::InvalidParams: return -32602;
    case Demand::None: break;
  }
  return 0;
}

const char* demand_name(Demand d) {
  switch (d) {
    case Demand::ParseError: return "parse error";
    case Demand::InvalidRequest: return "invalid request";
    case Demand::UnknownMethod: return "unknown method";
    case Demand::InvalidParams: return "invalid params";
    case Demand::None: break;
  }
  return "none";
}

bool is_made_up_method(const std::string& method) {
  const auto& reg = protocol::SchemaRegistry::builtin();
  // The fuzzer runs legacy sessions only: a method only 2026-07-28 has is made up for them.
  for (const auto& v : protocol::known_versions())
    if (!protocol::is_modern(v) && reg.method(v, method)) return false;
  return true;
}

namespace {

// Well-formed UTF-8 as RFC 3629 has it (the table of its section 4): no overlong forms, no
// surrogates, nothing past U+10FFFF. A laxer check called "\xC0\xAF" or "\xED\xA0\x80" text, and
// a WebSocket peer rightly closing with 1007 on them was then reported as a crash.
bool valid_utf8(const std::string& s) {
  std::size_t i = 0, n = s.size();
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  while (i < n) {
    unsigned char c = byte(i);
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
    if (c < 0x80) len = 1;
    else if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c == 0xE0) len = 3, lo = 0xA0;
    else if (c == 0xED) len = 3, hi = 0x9F;
    else if (c >= 0xE1 && c <= 0xEF) len = 3;
    else if (c == 0xF0) len = 4, lo = 0x90;
    else if (c == 0xF4) len = 4, hi = 0x8F;
    else if (c >= 0xF1 && c <= 0xF3) len = 4;
    if (len == 0 || i + len > n) return false;
    if (len > 1 && (byte(i + 1) < lo || byte(i + 1) > hi)) return false;
    for (std::size_t k = 2; k < len; ++k)
      if ((byte(i + k) & 0xC0) != 0x80) return false;
    i += len;
  }
  return true;
}

bool readable_id(const json& id) { return id.is_string() || id.is_number_integer(); }

bool plain_method_name(const std::string& m) {
  if (m.empty() || m.size() > 200 || m.rfind("rpc.", 0) == 0) return false;
  for (unsigned char c : m)
    if (!(std::isalnum(c) || c == '_' || c == '.' || c == '/' || c == '-')) return false;
  return true;
}

// Nesting depth of JSON text, by brackets outside strings (no parse needed).
std::size_t nesting(const std::string& s) {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : s) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

// Beyond these a server may refuse a message whole (as unparsable or too large) without reading
// its id: an error with id null is then a fair answer, and so is a normal one.
constexpr std::size_t kLimitDepth = 32;
constexpr std::size_t kLimitBytes = 1 << 20;

void apply_limits(FuzzMessage& m) {
  if (m.bytes.size() <= kLimitBytes && nesting(m.bytes) <= kLimitDepth) return;
  m.may_get_null_error = true;
  m.at_limits = true;
  if (m.demand == Demand::InvalidParams || m.demand == Demand::UnknownMethod) m.demand = Demand::None;
}

// An id as the peer reads it: the text we send replaces invalid UTF-8 with U+FFFD, so an id
// generated with such bytes must be tracked in its replaced form, or its answer looks foreign.
json as_sent(const json& id) {
  if (!id.is_string() || valid_utf8(id.get_ref<const std::string&>())) return id;
  return json::parse(id.dump(-1, ' ', false, json::error_handler_t::replace));
}

void fill_from_json(FuzzMessage& m, const json& msg, const std::string& version,
                    const protocol::SchemaRegistry& schemas) {
  m.is_json = true;
  if (msg.is_array()) {
    // A batch: answers carry the ids inside; we do not track them one by one. Anything it gets
    // back is judged as a whole by the envelope and schema checks.
    m.may_get_null_error = true;
    m.method = "(batch)";
    for (const auto& e : msg)
      if (e.is_object() && e.contains("method") && e.contains("id") && readable_id(e["id"]))
        m.batch_requests.emplace_back(e["method"].is_string() ? e["method"].get<std::string>() : "", as_sent(e["id"]));
    return;
  }
  auto c = protocol::classify(msg);
  if (msg.is_object() && msg.contains("method") && msg["method"].is_string()) m.method = msg["method"];
  bool id_ok = msg.is_object() && msg.contains("id") && readable_id(msg["id"]);
  if (c.kind == protocol::Kind::Request && c.problems.empty() && id_ok) {
    m.id = as_sent(msg["id"]);
    m.cancellable = m.method == "tools/call";
    const json* params = msg.contains("params") ? &msg["params"] : nullptr;
    if (params && !params->is_object()) {
      m.demand = Demand::InvalidRequest;  // -32600 or -32602 are both fair; only -32603 is judged
      return;
    }
    if (is_made_up_method(m.method)) {
      // -32601 is owed for a plain unknown name. An empty name, odd characters or the reserved
      // "rpc." prefix may also be refused as an invalid request.
      m.demand = plain_method_name(m.method) ? Demand::UnknownMethod : Demand::InvalidRequest;
      return;
    }
    auto info = schemas.method(version, m.method);
    if (info && info->kind == "request" && info->from != "server") {
      auto out = schemas.validate(msg, version, protocol::Sender::Client);
      if (!out.valid) m.demand = Demand::InvalidParams;
    }
    return;
  }
  if (c.kind == protocol::Kind::Notification && c.problems.empty()) {
    m.notification = true;
    if (m.method == "notifications/cancelled" && msg.contains("params") && msg["params"].is_object() &&
        msg["params"].contains("requestId"))
      m.cancels = as_sent(msg["params"]["requestId"]);
    return;
  }
  if (c.kind == protocol::Kind::Result || c.kind == protocol::Kind::Error) {
    // We answer nothing the server asked with these; a server should ignore them.
    return;
  }
  // Malformed: it may be answered with an error, carrying its id when that id is readable.
  m.may_get_null_error = true;
  if (id_ok) m.id = as_sent(msg["id"]);
  else if (msg.is_object() && msg.contains("id") && !msg["id"].is_null()) m.odd_id = msg["id"];
  m.demand = Demand::InvalidRequest;
}

}  // namespace

FuzzMessage describe_message(std::string bytes, std::string origin, const std::string& version,
                             const protocol::SchemaRegistry& schemas) {
  FuzzMessage m;
  m.origin = std::move(origin);
  bool utf8 = valid_utf8(bytes);
  m.utf8 = utf8;
  // nlohmann skips a leading byte order mark, but RFC 8259 forbids one and strict readers
  // (JavaScript's JSON.parse) refuse the whole line, so such a message is only maybe readable.
  bool bom = bytes.rfind("\xEF\xBB\xBF", 0) == 0;
  // Likewise a NUL byte, which no JSON text holds outside a string (where it must be escaped):
  // nlohmann stops at one after a complete value, strict readers refuse the line.
  bool nul = bytes.find('\0') != std::string::npos;
  bool maybe = bom || nul;
  json msg = maybe ? json(json::value_t::discarded) : json::parse(bytes, nullptr, false);
  if (!msg.is_discarded() && utf8) {
    fill_from_json(m, msg, version, schemas);
  } else {
    m.may_get_null_error = true;
    // Bytes that are not UTF-8 are not JSON text either (RFC 8259), but many parsers repair them
    // silently; only plainly unparsable text owes -32700.
    if (msg.is_discarded() && utf8 && !maybe) m.demand = Demand::ParseError;
    if (maybe) {
      // A lenient reader answers it under its id (with a result, or with an error when the rest
      // is malformed too): that answer is allowed, not owed.
      json inner = json::parse(std::string_view(bytes).substr(bom ? 3 : 0), nullptr, false);
      if (inner.is_object() && inner.contains("id") && !inner["id"].is_null())
        (readable_id(inner["id"]) ? m.id : m.odd_id) = inner["id"];
    }
  }
  m.bytes = std::move(bytes);
  apply_limits(m);
  return m;
}

bool refusable_over_http(const FuzzMessage& m, const std::string& version, const protocol::SchemaRegistry& schemas) {
  if (m.may_get_null_error || m.at_limits || m.demand == Demand::InvalidRequest || m.method == "initialize" ||
      !m.id)
    return true;
  if (!schemas.has_definition(version, "RpcRequest")) return false;
  json msg = json::parse(m.bytes, nullptr, false);
  return msg.is_discarded() || !schemas.validate_definition(msg, version, "RpcRequest").valid;
}

FuzzMessage describe_message(const json& message, std::string origin, const std::string& version,
                             const protocol::SchemaRegistry& schemas) {
  return describe_message(message, message.dump(-1, ' ', false, json::error_handler_t::replace), std::move(origin),
                          version, schemas);
}

FuzzMessage describe_message(const json& message, std::string dumped, std::string origin, const std::string& version,
                             const protocol::SchemaRegistry& schemas) {
  FuzzMessage m;
  m.origin = std::move(origin);
  fill_from_json(m, message, version, schemas);
  m.bytes = std::move(dumped);
  apply_limits(m);
  return m;
}

}  // namespace mcpspec::fuzz
