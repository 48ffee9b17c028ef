#include "fuzz_faults.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstdio>

namespace testserver {

namespace {

int depth_of(const json& v) {
  int deepest = 0;
  if (v.is_object() || v.is_array()) {
    for (const auto& child : v) deepest = std::max(deepest, depth_of(child));
    return deepest + 1;
  }
  return 0;
}

const json* member(const json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

bool is_request(const json& message) {
  const json* id = member(message, "id");
  return id != nullptr && (id->is_string() || id->is_number_integer());
}

}  // namespace

bool apply_fuzz_fault(Fault fault, const json& message, Wire& wire) {
  const json* method = member(message, "method");
  const json* params = member(message, "params");
  switch (fault) {
    case Fault::crash_on_deep_nesting:
      // The real-world shape of this bug: a recursive walk with a fixed-size stack.
      if (params != nullptr && depth_of(*params) > 32) {
        std::fprintf(stderr, "mcpspec-testserver: crash-on-deep-nesting: aborting\n");
        std::abort();
      }
      return false;
    case Fault::hang_on_long_echo: {
      if (method == nullptr || *method != "tools/call" || params == nullptr) return false;
      const json* name = member(*params, "name");
      const json* args = member(*params, "arguments");
      const json* text = args != nullptr ? member(*args, "text") : nullptr;
      if (name != nullptr && *name == "echo" && text != nullptr && text->is_string() &&
          text->get_ref<const std::string&>().size() > 1000) {
        std::fprintf(stderr, "mcpspec-testserver: hang-on-long-echo: no longer reading input\n");
        for (;;) ::pause();  // only a signal ends this
      }
      return false;
    }
    case Fault::non_json_on_control_char:
      if (method != nullptr && method->is_string()) {
        for (unsigned char c : method->get_ref<const std::string&>()) {
          if (c < 0x20) {
            wire.send_text_line("unknown method (it has a control character)");
            return true;
          }
        }
      }
      return false;
    case Fault::ping_params_bad_result:
      if (method != nullptr && *method == "ping" && is_request(message) && params != nullptr &&
          params->is_object() && !params->empty()) {
        wire.send(wire.result_response(message["id"], "pong"));
        return true;
      }
      return false;
    default:
      return false;
  }
}

}  // namespace testserver
