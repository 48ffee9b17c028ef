#include "jsonrpc_envelope.hpp"

#include <fmt/format.h>


#include "json_depth.hpp"

namespace clariad {
namespace {

std::string_view trim(std::string_view s) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// nlohmann prefixes its messages with "[json.exception.parse_error.101] "; the rest (line,
// column, what was read) is what a user needs.
std::string parser_detail(const std::exception& e) {
  std::string_view what = e.what();
  if (!what.empty() && what.front() == '[') {
    const auto close = what.find("] ");
    if (close != std::string_view::npos) what.remove_prefix(close + 2);
  }
  return fmt::format("the line is not valid JSON: {}", what);
}

Rejection reject(OJson id, ErrorCode code, std::string detail, std::string pointer = {}) {
  return Rejection{std::move(id), RpcError(code, std::move(detail), std::move(pointer))};
}

}  // namespace

std::string id_key(const Json& id) { return id.dump(); }

Envelope read_envelope(std::string_view line, std::size_t max_depth) {
  const std::string_view text = trim(line);
  if (text.empty()) return BlankLine{};

  if (nesting_exceeds(text, max_depth)) {
    return reject(nullptr, ErrorCode::InvalidRequest,
                  fmt::format("the message nests arrays/objects deeper than {} levels", max_depth));
  }

  Json doc;
  try {
    doc = Json::parse(text);
  } catch (const Json::exception& e) {
    // parse_error for syntax, out_of_range for numbers such as 1e400: both mean unreadable input.
    return reject(nullptr, ErrorCode::ParseError, parser_detail(e));
  }

  if (doc.is_array()) {
    return reject(nullptr, ErrorCode::InvalidRequest,
                  "batches (JSON arrays) are not supported: send one JSON object per line");
  }
  if (!doc.is_object()) {
    return reject(nullptr, ErrorCode::InvalidRequest,
                  fmt::format("a message must be a JSON object, got {}", doc.type_name()));
  }

  Message msg;
  const bool has_id = doc.contains("id");
  OJson reply_id = nullptr;
  if (has_id) {
    const Json& id = doc["id"];
    if (id.is_null()) {
      return reject(nullptr, ErrorCode::InvalidRequest,
                    "id must be a string or a number; null is not accepted because error "
                    "responses to unreadable requests use it",
                    "/id");
    }
    if (!id.is_string() && !id.is_number()) {
      return reject(nullptr, ErrorCode::InvalidRequest,
                    fmt::format("id must be a string or a number, got {}", id.type_name()), "/id");
    }
    // JSON-RPC and MCP ids are strings or integers. A fraction (1.5) makes the request invalid,
    // and echoing it would make our response invalid too; integers beyond 64 bits are parsed as
    // doubles and would come back altered. Both are refused with id null.
    if (id.is_number_float()) {
      return reject(nullptr, ErrorCode::InvalidRequest,
                    fmt::format("id must be a string or an integer, got the number {}", id.dump()), "/id");
    }
    msg.id = id;
    reply_id = to_ordered(id);
  }

  const auto version = doc.find("jsonrpc");
  if (version == doc.end()) {
    return reject(reply_id, ErrorCode::InvalidRequest, "missing member \"jsonrpc\" (must be \"2.0\")",
                  "/jsonrpc");
  }
  if (!version->is_string() || version->get_ref<const std::string&>() != "2.0") {
    return reject(reply_id, ErrorCode::InvalidRequest,
                  fmt::format("\"jsonrpc\" must be the string \"2.0\", got {}", version->dump()),
                  "/jsonrpc");
  }

  const auto method = doc.find("method");
  if (method == doc.end()) {
    if (doc.contains("result") || doc.contains("error")) {
      msg.kind = Message::Kind::Reply;
      return msg;
    }
    return reject(reply_id, ErrorCode::InvalidRequest, "missing member \"method\"", "/method");
  }
  if (!method->is_string()) {
    return reject(reply_id, ErrorCode::InvalidRequest,
                  fmt::format("\"method\" must be a string, got {}", method->type_name()), "/method");
  }
  msg.method = method->get<std::string>();

  const auto params = doc.find("params");
  if (params != doc.end() && !params->is_null()) {
    if (!params->is_object() && !params->is_array()) {
      return reject(reply_id, ErrorCode::InvalidRequest,
                    fmt::format("\"params\" must be an object or an array, got {}", params->type_name()),
                    "/params");
    }
    msg.params = std::move(*params);
  }

  msg.kind = has_id ? Message::Kind::Request : Message::Kind::Notification;
  return msg;
}

}  // namespace clariad
