#include "schema_budget.hpp"

namespace testclient {

using nlohmann::json;

namespace {

struct Walk {
  const json& root;
  long long budget;
  long long visited = 0;

  // false once the budget is spent
  bool visit(const json& schema, int depth) {
    if (budget >= 0 && ++visited > budget) return false;
    if (depth > 200 || !schema.is_object()) return true;  // deeper than any real schema: not followed
    for (const auto& [key, value] : schema.items()) {
      if (key == "$ref" && value.is_string()) {
        const std::string ref = value.get<std::string>();
        if (ref.rfind("#/", 0) != 0) continue;  // only local references are followed
        const json::json_pointer pointer(ref.substr(1));
        if (root.contains(pointer) && !visit(root.at(pointer), depth + 1)) return false;
      } else if (key == "anyOf" || key == "oneOf" || key == "allOf" || key == "prefixItems") {
        if (value.is_array())
          for (const auto& sub : value)
            if (!visit(sub, depth + 1)) return false;
      } else if (key == "properties" || key == "patternProperties") {
        if (value.is_object())
          for (const auto& [_, sub] : value.items())
            if (!visit(sub, depth + 1)) return false;
      } else if (key == "not" || key == "if" || key == "then" || key == "else" || key == "items" ||
                 key == "additionalProperties" || key == "contains") {
        if (!visit(value, depth + 1)) return false;
      }
    }
    return true;
  }
};

}  // namespace

bool schema_within_budget(const json& schema, long long budget) {
  try {
    Walk walk{schema, budget};
    return walk.visit(schema, 0);
  } catch (const json::exception&) {
    return false;  // a $ref that is no valid JSON Pointer: the schema is invalid
  }
}

}  // namespace testclient
