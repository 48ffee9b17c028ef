// What a request handler produces, and the exception handlers use to refuse a request.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json_text.hpp"
#include "wire.hpp"

namespace testserver {

struct Outcome {
  enum class Kind {
    result,
    error,
    deferred,  // a worker thread will answer later (slow_progress)
    silent,    // no answer at all (only used to inject faults)
  };
  Kind kind = Kind::result;
  json result;
  RpcError error{0, {}};
  std::vector<json> trailing;  // messages to write right after the answer

  static Outcome ok(json r) { return {Kind::result, std::move(r), {0, {}}, {}}; }
  static Outcome fail(RpcError e) { return {Kind::error, nullptr, std::move(e), {}}; }
  static Outcome deferred() { return {Kind::deferred, nullptr, {0, {}}, {}}; }
  static Outcome silent() { return {Kind::silent, nullptr, {0, {}}, {}}; }
};

// Thrown by handlers (and the helpers below) to answer with a JSON-RPC error.
struct RpcFailure {
  RpcError error;
};

[[noreturn]] inline void fail(int code, std::string message, json data = nullptr) {
  throw RpcFailure{RpcError{code, std::move(message), std::move(data)}};
}

// Reading request params: each helper names the member by its path (`where` is e.g.
// "params" or "params.ref") when it refuses.
// `params` is always an object here (the dispatcher turns a missing params into {}).
const json* find_member(const json& params, std::string_view key);
const std::string& require_string(const json& params, std::string_view key,
                                  std::string_view where);
const json& require_object(const json& params, std::string_view key, std::string_view where);
// Optional string member: nullptr when absent, refused when present with another type.
const std::string* optional_string(const json& params, std::string_view key,
                                   std::string_view where);

}  // namespace testserver
