// completion/complete for the greeting and confirm_prompt prompts' arguments and the
// test://items/{id} template.
#include <array>
#include <cctype>
#include <string_view>
#include <vector>

#include "features.hpp"
#include "session.hpp"

namespace testserver {

namespace {

constexpr std::array<std::string_view, 8> kNames = {"Alice", "Albert", "Bob",   "Bruno",
                                                    "Carol", "Chen",   "Dana", "Dmitri"};
constexpr std::array<std::string_view, 2> kStyles = {"casual", "formal"};
constexpr std::array<std::string_view, 3> kTargets = {"the plan", "the release", "the rollback"};
constexpr std::size_t kMaxValues = 100;  // the protocol's limit per response

bool starts_with_ci(std::string_view s, std::string_view prefix) {
  if (prefix.size() > s.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) !=
        std::tolower(static_cast<unsigned char>(prefix[i]))) {
      return false;
    }
  }
  return true;
}

template <typename Range>
std::vector<std::string> matching(const Range& candidates, const std::string& typed) {
  std::vector<std::string> out;
  for (auto c : candidates) {
    if (starts_with_ci(c, typed)) out.emplace_back(c);
  }
  return out;
}

std::vector<std::string> item_ids() {
  std::vector<std::string> ids;
  for (int i = 1; i <= 30; ++i) ids.push_back(std::to_string(i));
  return ids;
}

std::string shorten(const std::string& s) { return s.size() > 100 ? s.substr(0, 100) + "..." : s; }

}  // namespace

Outcome completion_complete(Session& s, const Request& req) {
  const json& ref = require_object(req.params, "ref", "params");
  const std::string& type = require_string(ref, "type", "params.ref");
  const json& argument = require_object(req.params, "argument", "params");
  const std::string& arg_name = require_string(argument, "name", "params.argument");
  const std::string& typed = require_string(argument, "value", "params.argument");
  if (const json* ctx = find_member(req.params, "context"); ctx != nullptr && !ctx->is_object()) {
    fail(rpc_code::invalid_params, "params.context must be an object");
  }

  std::vector<std::string> values;
  if (type == "ref/prompt") {
    const std::string& prompt = require_string(ref, "name", "params.ref");
    if (prompt == "greeting" && arg_name == "name") {
      values = matching(kNames, typed);
    } else if (prompt == "greeting" && arg_name == "style") {
      values = matching(kStyles, typed);
    } else if (prompt == "confirm_prompt" && arg_name == "target" && s.version() >= Version::v2026_07_28) {
      values = matching(kTargets, typed);
    } else if (prompt == "greeting" || prompt == "plain" || prompt == "confirm_prompt") {
      fail(rpc_code::invalid_params,
           "prompt '" + prompt + "' has no argument '" + shorten(arg_name) + "'");
    } else {
      fail(rpc_code::invalid_params, "unknown prompt '" + shorten(prompt) + "'");
    }
  } else if (type == "ref/resource") {
    const std::string& uri = require_string(ref, "uri", "params.ref");
    if (uri != "test://items/{id}") {
      fail(rpc_code::invalid_params, "no resource template '" + shorten(uri) + "'");
    }
    if (arg_name != "id") {
      fail(rpc_code::invalid_params, "template test://items/{id} has no variable '" +
                                         shorten(arg_name) + "'");
    }
    values = matching(item_ids(), typed);
  } else {
    fail(rpc_code::invalid_params,
         "params.ref.type must be ref/prompt or ref/resource, got '" + shorten(type) + "'");
  }

  if (s.faulty(Fault::completion_over_100)) {
    for (int i = 0; values.size() < 150; ++i) values.push_back("extra-" + std::to_string(i));
  }
  const std::size_t total = values.size();
  const bool more = total > kMaxValues && !s.faulty(Fault::completion_over_100);
  if (more) values.resize(kMaxValues);
  return Outcome::ok({{"completion", {{"values", values}, {"total", total}, {"hasMore", more}}}});
}

}  // namespace testserver
