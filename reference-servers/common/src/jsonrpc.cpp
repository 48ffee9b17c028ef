#include "mcpref/jsonrpc.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace mcpref::rpc {

Json make_result(const Json& id, Json result) {
  Json reply = Json::object();
  reply["jsonrpc"] = "2.0";
  reply["result"] = std::move(result);
  reply["id"] = id;
  return reply;
}

Json make_error(const Json& id, int code, const std::string& message, const Json& data) {
  Json err = Json::object();
  err["code"] = code;
  err["message"] = message;
  if (!data.is_null()) err["data"] = data;
  Json reply = Json::object();
  reply["jsonrpc"] = "2.0";
  reply["error"] = std::move(err);
  reply["id"] = id;
  return reply;
}

std::size_t nesting_depth(std::string_view text) {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    switch (c) {
      case '"': in_string = true; break;
      case '[':
      case '{':
        if (++depth > deepest) deepest = depth;
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default: break;
    }
  }
  return deepest;
}

namespace {

// nlohmann's messages start with "[json.exception.parse_error.101] parse error at line 1,
// column 2: ..."; keep the human part and restate the position plainly.
std::string describe_parse_error(const nlohmann::json::parse_error& e, std::string_view text) {
  std::string what = e.what();
  std::string detail = what;
  auto colon = what.find(": ", what.find("column"));
  if (what.find("column") != std::string::npos && colon != std::string::npos) {
    detail = what.substr(colon + 2);
  } else if (auto close = what.find("] "); close != std::string::npos) {
    detail = what.substr(close + 2);
  }
  // e.byte is 1-based and may point one past the end (unexpected end of input).
  std::size_t line = 1, column = 1;
  std::size_t stop = e.byte == 0 ? 0 : std::min<std::size_t>(e.byte - 1, text.size());
  for (std::size_t i = 0; i < stop; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return fmt::format("Parse error: {} at line {} column {}", detail, line, column);
}

const char* type_name(const Json& v) {
  return v.type_name();
}

}  // namespace

ParsedText parse_json_text(std::string_view text) {
  ParsedText out;
  std::size_t depth = nesting_depth(text);
  if (depth > kMaxNestingDepth) {
    out.error_reply = make_error(
        nullptr, kInvalidRequest,
        fmt::format("Invalid Request: JSON nested {} levels deep (limit {})", depth, kMaxNestingDepth));
    return out;
  }
  try {
    out.value = Json::parse(text);
    out.ok = true;
  } catch (const nlohmann::json::parse_error& e) {
    out.error_reply = make_error(nullptr, kParseError, describe_parse_error(e, text));
  } catch (const nlohmann::json::out_of_range& e) {
    // Valid syntax with a number beyond a double (2e966): nlohmann throws out_of_range, not
    // parse_error. Left uncaught it ended the server (found by mcpspec fuzz).
    out.error_reply = make_error(nullptr, kParseError, fmt::format("Parse error: {}", e.what()));
  }
  return out;
}

std::variant<Message, Json> classify(const Json& value) {
  auto invalid = [](const Json& id, const std::string& why) {
    return std::variant<Message, Json>(std::in_place_index<1>,
                                       make_error(id, kInvalidRequest, "Invalid Request: " + why));
  };
  if (!value.is_object()) {
    return invalid(nullptr, fmt::format("a message must be a JSON object, got {}", type_name(value)));
  }

  // An id we cannot echo faithfully is answered with null, as JSON-RPC prescribes.
  Json id = nullptr;
  bool has_id = value.contains("id");
  if (has_id) {
    const Json& raw = value["id"];
    if (raw.is_number_float()) {
      // MCP ids are strings or integers: a fraction (1.5), or an integer too large for 64 bits
      // (parsed as a double), cannot be echoed as a valid id.
      return invalid(nullptr, fmt::format("id must be a string or an integer, got the number {}", raw.dump()));
    }
    if (raw.is_string() || raw.is_number()) {
      id = raw;
    } else {
      return invalid(nullptr, fmt::format("id must be a string or a number, got {}", type_name(raw)));
    }
  }

  auto version = value.find("jsonrpc");
  if (version == value.end() || !version->is_string() || version->get<std::string>() != "2.0") {
    std::string got = version == value.end() ? "missing" : version->dump();
    return std::variant<Message, Json>(
        std::in_place_index<1>,
        make_error(id, kInvalidRequest, "Invalid JSON-RPC version",
                   Json{{"expected", "2.0"}, {"got", got}}));
  }

  Message msg;
  auto method = value.find("method");
  if (method == value.end()) {
    if (has_id && (value.contains("result") || value.contains("error"))) {
      msg.kind = Message::Kind::Response;
      msg.id = id;
      return msg;
    }
    return invalid(id, "missing \"method\"");
  }
  if (!method->is_string()) {
    return invalid(id, fmt::format("\"method\" must be a string, got {}", type_name(*method)));
  }
  // An empty name is still a string: a request for it is an unknown method (-32601) and a
  // notification of it is ignored like any unknown notification (a reply would answer a
  // notification; found by mcpspec fuzz).
  msg.method = method->get<std::string>();

  auto params = value.find("params");
  if (params != value.end() && !params->is_null()) {
    if (!params->is_object() && !params->is_array()) {
      return invalid(id, fmt::format("\"params\" must be an object or an array, got {}",
                                     type_name(*params)));
    }
    msg.params = *params;
  }

  msg.kind = has_id ? Message::Kind::Request : Message::Kind::Notification;
  msg.id = id;
  return msg;
}

}  // namespace mcpref::rpc
