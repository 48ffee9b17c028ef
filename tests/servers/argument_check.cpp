#include "argument_check.hpp"

#include <cmath>

namespace testserver {

namespace {

std::string kind_of(const json& v) {
  if (v.is_number_integer()) return "integer";
  if (v.is_number_float()) return "number";
  return v.type_name();
}

std::string number_text(double d) {
  if (d == std::floor(d) && std::fabs(d) < 1e15) return std::to_string(static_cast<long long>(d));
  return json(d).dump();
}

std::optional<std::string> check_value(const std::string& name, const json& schema, const json& v) {
  const std::string type = schema.value("type", "");
  if (type == "string" && !v.is_string()) {
    return "argument '" + name + "' must be a string, got " + kind_of(v);
  }
  if (type == "number" || type == "integer") {
    if (!v.is_number()) return "argument '" + name + "' must be a " + type + ", got " + kind_of(v);
    const double d = v.get<double>();
    if (!std::isfinite(d)) return "argument '" + name + "' must be a finite number";
    // 2020-12 and draft-07 both count 3.0 as an integer.
    if (type == "integer" && d != std::floor(d)) {
      return "argument '" + name + "' must be an integer, got " + v.dump();
    }
    if (schema.contains("minimum") && d < schema["minimum"].get<double>()) {
      return "argument '" + name + "' must be at least " +
             number_text(schema["minimum"].get<double>()) + ", got " + v.dump();
    }
    if (schema.contains("maximum") && d > schema["maximum"].get<double>()) {
      return "argument '" + name + "' must be at most " +
             number_text(schema["maximum"].get<double>()) + ", got " + v.dump();
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check_arguments(const json& schema, const json& args) {
  if (!args.is_object()) return "arguments must be an object, got " + kind_of(args);
  static const json kNone = json::object();
  const json& props = schema.contains("properties") ? schema["properties"] : kNone;
  if (schema.contains("required")) {
    for (const auto& r : schema["required"]) {
      if (!args.contains(r.get<std::string>())) {
        return "argument '" + r.get<std::string>() + "' is required";
      }
    }
  }
  const bool closed = schema.value("additionalProperties", true) == false;
  for (const auto& [name, value] : args.items()) {
    if (props.contains(name)) {
      if (auto problem = check_value(name, props[name], value)) return problem;
    } else if (closed) {
      std::string shown = name.size() > 60 ? name.substr(0, 60) + "..." : name;
      return "unexpected argument '" + shown + "'";
    }
  }
  return std::nullopt;
}

}  // namespace testserver
