#include "elicitation_answer.hpp"

namespace testclient {

using nlohmann::json;

namespace {

// The declared elicitation modes: {} (or form) is form mode; url only when named.
bool declares(const json& declared, const std::string& mode) {
  if (!declared.is_object() || !declared.contains("elicitation") || !declared["elicitation"].is_object()) return false;
  const json& e = declared["elicitation"];
  if (e.empty()) return mode == "form";
  return e.contains(mode);
}

// A value of the property's type (the first enum value when it has one).
json filled(const json& property) {
  if (property.contains("enum") && property["enum"].is_array() && !property["enum"].empty()) return property["enum"][0];
  const std::string type = property.value("type", json("string")).is_string() ? property.value("type", "string") : "string";
  if (type == "integer" || type == "number") return 1;
  if (type == "boolean") return true;
  return "mcpspec";
}

}  // namespace

json elicitation_answer(const json& params, const json& declared, Fault fault) {
  const bool has_mode = params.is_object() && params.contains("mode");
  if (!has_mode && fault == Fault::elicitation_no_mode_not_form) return {{"action", "decline"}};
  const std::string mode = has_mode && params["mode"].is_string() ? params["mode"].get<std::string>() : "form";
  if ((mode != "form" && mode != "url") || !declares(declared, mode)) return {{"action", "decline"}};
  if (mode == "url") return {{"action", "accept"}};
  json content = json::object();
  if (params.contains("requestedSchema") && params["requestedSchema"].is_object() &&
      params["requestedSchema"].contains("properties") && params["requestedSchema"]["properties"].is_object())
    for (const auto& [name, property] : params["requestedSchema"]["properties"].items())
      if (property.is_object()) content[name] = filled(property);
  return {{"action", "accept"}, {"content", content}};
}

}  // namespace testclient
