// logging/setLevel.
#include "features.hpp"
#include "session.hpp"

namespace testserver {

Outcome logging_set_level(Session& s, const Request& req) {
  const std::string& text = require_string(req.params, "level", "params");
  auto level = parse_log_level(text);
  if (!level) {
    if (s.faulty(Fault::bad_log_level_accepted)) return Outcome::ok(json::object());
    std::string shown = text.size() > 40 ? text.substr(0, 40) + "..." : text;
    fail(rpc_code::invalid_params,
         "unknown log level '" + shown +
             "' (expected debug, info, notice, warning, error, critical, alert or emergency)");
  }
  s.logs().set_level(*level);
  return Outcome::ok(json::object());
}

}  // namespace testserver
