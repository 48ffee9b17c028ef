// prompts/list and prompts/get: `greeting` (required name, optional style) and `plain`.
#include "features.hpp"
#include "session.hpp"

namespace testserver {

namespace {

std::string shorten(const std::string& s) { return s.size() > 100 ? s.substr(0, 100) + "..." : s; }

json user_text(std::string text) {
  return {{"role", "user"}, {"content", {{"type", "text"}, {"text", std::move(text)}}}};
}

// Prompt arguments are a map of strings; returns the checked map.
const json& string_arguments(const json& params) {
  static const json kNone = json::object();
  const json* args = find_member(params, "arguments");
  if (args == nullptr) return kNone;
  if (!args->is_object()) fail(rpc_code::invalid_params, "params.arguments must be an object");
  for (const auto& [key, value] : args->items()) {
    if (!value.is_string()) {
      fail(rpc_code::invalid_params, "prompt argument '" + shorten(key) + "' must be a string");
    }
  }
  return *args;
}

void refuse_unknown_arguments(const json& args, std::initializer_list<std::string_view> known,
                              const std::string& prompt) {
  for (const auto& [key, value] : args.items()) {
    bool ok = false;
    for (auto k : known) ok = ok || key == k;
    if (!ok) {
      fail(rpc_code::invalid_params,
           "prompt '" + prompt + "' has no argument '" + shorten(key) + "'");
    }
  }
}

}  // namespace

Outcome prompts_list(Session& s, const Request& req) {
  requested_offset(req.params, s.cursors(), 0, s.faulty(Fault::invalid_cursor_accepted));
  json greeting = {{"name", "greeting"},
                   {"description", "Asks the model to greet someone."},
                   {"arguments",
                    json::array({{{"name", "name"}, {"description", "Who to greet"}, {"required", true}},
                                 {{"name", "style"},
                                  {"description", "formal or casual (default casual)"},
                                  {"required", false}}})}};
  json plain = {{"name", "plain"}, {"description", "A prompt without arguments."}};
  if (s.version() >= Version::v2025_06_18) {
    greeting["title"] = "Greeting";
    plain["title"] = "Plain";
  }
  json prompts = json::array({greeting, plain});
  if (s.version() >= Version::v2026_07_28)
    prompts.push_back({{"name", "confirm_prompt"},
                       {"title", "Confirm prompt"},
                       {"description", "Asks the user to confirm (an elicitation input round) before it is given."},
                       {"arguments", json::array({{{"name", "target"}, {"description", "What to confirm"}, {"required", false}}})}});
  return Outcome::ok({{"prompts", std::move(prompts)}});
}

Outcome prompts_get(Session& s, const Request& req) {
  const std::string& name = require_string(req.params, "name", "params");
  const json& args = string_arguments(req.params);
  if (name == "plain") {
    refuse_unknown_arguments(args, {}, name);
    return Outcome::ok({{"description", "A prompt without arguments."},
                        {"messages", json::array({user_text("Say something plain.")})}});
  }
  if (name == "greeting") {
    refuse_unknown_arguments(args, {"name", "style"}, name);
    std::string who = "someone";
    if (args.contains("name")) {
      who = args["name"].get<std::string>();
    } else if (!s.faulty(Fault::missing_required_prompt_arg_accepted)) {
      fail(rpc_code::invalid_params, "prompt 'greeting' needs the argument 'name'");
    }
    std::string style = args.value("style", "casual");
    if (style != "formal" && style != "casual") {
      fail(rpc_code::invalid_params, "prompt argument 'style' must be formal or casual");
    }
    return Outcome::ok({{"description", "Greets " + who + "."},
                        {"messages", json::array({user_text("Please greet " + who + " in a " +
                                                            style + " way.")})}});
  }
  if (name == "confirm_prompt" && s.version() >= Version::v2026_07_28) {
    refuse_unknown_arguments(args, {"target"}, name);
    const std::string target = args.value("target", "the plan");
    return confirm_round(s, req, "prompts/get", args, target, [&target](bool ok, const std::string& action) {
      return Outcome::ok({{"description", "Asks to go on with " + target + "."},
                          {"messages", json::array({user_text(ok ? "Go on with " + target + "."
                                                                 : "Do not go on with " + target + " (" + action + ").")})}});
    });
  }
  fail(rpc_code::invalid_params, "unknown prompt '" + shorten(name) + "'", {{"name", name}});
}

}  // namespace testserver
