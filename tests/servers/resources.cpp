// resources/list (paged by 2), resources/templates/list, resources/read, subscribe/unsubscribe.
#include <array>
#include <optional>
#include <string_view>

#include "features.hpp"
#include "png_image.hpp"
#include "session.hpp"

namespace testserver {

namespace {

constexpr std::size_t kPageSize = 2;
constexpr std::string_view kItemPrefix = "test://items/";

struct StaticResource {
  std::string_view uri;
  std::string_view name;
  std::string_view title;
  std::string_view description;
  std::string_view mime_type;
  bool binary;
  std::string_view text;  // unused for binary resources
};

constexpr std::array<StaticResource, 5> kResources = {{
    {"test://static/text", "static-text", "Static text", "A short plain-text document.",
     "text/plain", false, "Hello from the mcpspec test server.\n"},
    {"test://static/blob", "static-blob", "Static blob", "32 bytes of binary data (0x00-0x1f).",
     "application/octet-stream", true, ""},
    {"test://static/json", "static-json", "Static JSON", "A small JSON document.",
     "application/json", false, "{\"answer\":42,\"list\":[1,2,3]}"},
    {"test://static/markdown", "static-markdown", "Static Markdown", "A Markdown heading and list.",
     "text/markdown", false, "# Test\n\n- one\n- two\n"},
    {"test://static/empty", "static-empty", "Empty", "A text resource with no content.",
     "text/plain", false, ""},
}};

// Read only after the user confirmed it (protocol 2026-07-28: an elicitation input round).
constexpr StaticResource kGated = {"test://confirm/gated", "confirm-gated", "Gated",
                                   "Asks the user to confirm (an elicitation input round) before it is read.",
                                   "text/plain", false, "Behind the gate.\n"};

std::string blob_bytes() {
  std::string b;
  for (int i = 0; i < 32; ++i) b.push_back(static_cast<char>(i));
  return b;
}

const StaticResource* find_static(const std::string& uri) {
  for (const auto& r : kResources) {
    if (r.uri == uri) return &r;
  }
  return nullptr;
}

// test://items/{id}: an id is 1-64 characters from [A-Za-z0-9_-].
std::optional<std::string> item_id(const std::string& uri) {
  if (uri.compare(0, kItemPrefix.size(), kItemPrefix) != 0) return std::nullopt;
  std::string id = uri.substr(kItemPrefix.size());
  if (id.empty() || id.size() > 64) return std::nullopt;
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) return std::nullopt;
  }
  return id;
}

[[noreturn]] void not_found(Session& s, const std::string& uri) {
  std::string shown = uri.size() > 200 ? uri.substr(0, 200) + "..." : uri;
  // 2026-07-28 retired -32002: a missing resource is invalid params there.
  const int found_code = s.modern() && !s.faulty(Fault::retired_not_found_code) ? rpc_code::invalid_params
                                                                               : rpc_code::resource_not_found;
  const int code = s.faulty(Fault::resource_not_found_wrong_code) ? rpc_code::internal_error : found_code;
  fail(code, "resource not found: " + shown, {{"uri", uri}});
}

json describe(const StaticResource& r, Version v) {
  json d = {{"uri", r.uri}, {"name", r.name}, {"description", r.description},
            {"mimeType", r.mime_type}};
  if (v >= Version::v2025_06_18) d["title"] = r.title;
  return d;
}

}  // namespace

Outcome resources_list(Session& s, const Request& req) {
  // From 2026-07-28 the gated resource, read through an input round, is listed last.
  const bool gated = s.version() >= Version::v2026_07_28;
  const std::size_t total = kResources.size() + (gated ? 1 : 0);
  const std::size_t offset = requested_offset(req.params, s.cursors(), total,
                                              s.faulty(Fault::invalid_cursor_accepted));
  json page = json::array();
  for (std::size_t i = offset; i < total && i < offset + kPageSize; ++i) {
    page.push_back(i < kResources.size() ? describe(kResources[i], s.version()) : describe(kGated, s.version()));
  }
  json result = {{"resources", std::move(page)}};
  if (offset + kPageSize < total) {
    result["nextCursor"] = s.cursors().encode(offset + kPageSize);
  }
  return Outcome::ok(std::move(result));
}

Outcome resources_templates_list(Session& s, const Request& req) {
  requested_offset(req.params, s.cursors(), 0, s.faulty(Fault::invalid_cursor_accepted));
  json t = {{"uriTemplate", "test://items/{id}"},
            {"name", "item"},
            {"description", "One item; id is 1-64 characters of A-Z a-z 0-9 _ -"},
            {"mimeType", "text/plain"}};
  if (s.version() >= Version::v2025_06_18) t["title"] = "Item";
  return Outcome::ok({{"resourceTemplates", json::array({t})}});
}

Outcome resources_read(Session& s, const Request& req) {
  const std::string& uri = require_string(req.params, "uri", "params");
  json content = {{"uri", uri}};
  if (uri == kGated.uri && s.version() >= Version::v2026_07_28) {
    return confirm_round(s, req, "resources/read", json{{"uri", uri}}, uri, [&uri](bool ok, const std::string& action) {
      json c = {{"uri", uri}, {"mimeType", "text/plain"},
                {"text", ok ? std::string(kGated.text) : "Not confirmed (" + action + ").\n"}};
      return Outcome::ok({{"contents", json::array({std::move(c)})}});
    });
  }
  if (const StaticResource* r = find_static(uri)) {
    content["mimeType"] = r->mime_type;
    if (r->binary) {
      content["blob"] = s.faulty(Fault::blob_not_base64) ? std::string("this is not base64!")
                                                         : base64_encode(blob_bytes());
    } else {
      content["text"] = r->text;
    }
  } else if (auto id = item_id(uri)) {
    content["mimeType"] = "text/plain";
    content["text"] = "This is item " + *id + ".";
  } else {
    not_found(s, uri);
  }
  return Outcome::ok({{"contents", json::array({content})}});
}

Outcome resources_subscribe(Session& s, const Request& req) {
  const std::string& uri = require_string(req.params, "uri", "params");
  if (find_static(uri) == nullptr && !item_id(uri)) not_found(s, uri);
  // Nothing here ever changes, so no notifications/resources/updated will follow.
  s.subscriptions().insert(uri);
  return Outcome::ok(json::object());
}

Outcome resources_unsubscribe(Session& s, const Request& req) {
  const std::string& uri = require_string(req.params, "uri", "params");
  s.subscriptions().erase(uri);
  return Outcome::ok(json::object());
}

}  // namespace testserver
