// The upper bound on schema work that json_schema_guard works out from a schema graph: tight
// enough that real schemas (wide property maps, trees) are never refused, loose only where
// valijson really may do that much.
#include "harness/jsonschema/compiled_schema.hpp"
#include "harness/jsonschema/guard.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

using nlohmann::json;
using mcpspec::SchemaBounds;

namespace {

SchemaBounds bounds_of(json schema, mcpspec::SchemaEntry entry = mcpspec::SchemaEntry::Root) {
  return mcpspec::prepare_schema_for_valijson(schema, entry);
}

// An object schema `levels` deep with `width` properties on each level.
json wide_object(int levels, int width) {
  if (levels == 0) return {{"type", "integer"}};
  json props = json::object();
  for (int i = 0; i < width; ++i) props["p" + std::to_string(i)] = wide_object(levels - 1, width);
  return {{"type", "object"}, {"properties", props}, {"additionalProperties", false}};
}

json wide_value(int levels, int width) {
  if (levels == 0) return 1;
  json v = json::object();
  for (int i = 0; i < width; ++i) v["p" + std::to_string(i)] = wide_value(levels - 1, width);
  return v;
}

}  // namespace

TEST_CASE("schema work bound: one member gets one property's schema, not all of them", "[schema][guard]") {
  // 8 properties per level, 3 levels: 585 schemas, yet one schema lands on each part.
  auto b = bounds_of(wide_object(3, 8));
  CHECK(b.applications == std::vector<std::uint64_t>{1, 1, 1, 1, 0});
  CHECK_FALSE(b.steady);
  auto cost = mcpspec::check_value_within_limits(b, wide_value(3, 8));
  CHECK(cost.decide == 1 + 8 + 64 + 512);
  CHECK(cost.explain >= cost.decide);
  // And the value is checked, both ways.
  mcpspec::CompiledSchema schema(wide_object(3, 8));
  CHECK(schema.validate(wide_value(3, 8)).empty());
  json wrong = wide_value(3, 8);
  wrong["p7"]["p7"]["p7"] = "x";
  auto issues = schema.validate(wrong);
  REQUIRE_FALSE(issues.empty());
  CHECK(issues.front().pointer == "/p7/p7/p7");
}

TEST_CASE("schema work bound: combinators add up, contains adds to items", "[schema][guard]") {
  // allOf of two: the schema, its allOf's two (three on the value itself).
  CHECK(bounds_of({{"allOf", {{{"type", "integer"}}, {{"minimum", 0}}}}}).applications ==
        std::vector<std::uint64_t>{3, 0});
  // Each item gets "items" and "contains".
  CHECK(bounds_of({{"items", {{"type", "integer"}}}, {"contains", {{"minimum", 0}}}}).applications ==
        std::vector<std::uint64_t>{1, 2, 0});
  // A tuple item gets its own schema or additionalItems, whichever is more.
  json tuple = json::parse(R"({"items": [{"type": "integer"}, {"anyOf": [{"type": "string"}, {"type": "null"}]}],
                                "additionalItems": false})");
  CHECK(bounds_of(tuple).applications == std::vector<std::uint64_t>{1, 3, 0});
}

TEST_CASE("schema work bound: recursion through parts stays flat, doubling per level does not", "[schema][guard]") {
  // A list whose items are lists: the same number on every level, for ever.
  auto list = bounds_of({{"type", "array"}, {"items", {{"$ref", "#"}}}});
  CHECK(list.steady);
  REQUIRE_FALSE(list.applications.empty());
  CHECK(list.applications.back() == 2);  // the $ref and the schema it leads to
  // Two of itself per item: doubling until the ceiling.
  auto doubling = bounds_of(json::parse(R"({"type": "array", "items": {"anyOf": [{"$ref": "#"}, {"$ref": "#"}]}})"));
  CHECK_FALSE(doubling.steady);
  REQUIRE(doubling.applications.size() > 10);
  CHECK(doubling.applications[2] == 2 * doubling.applications[1]);  // 5, 10, 20, ...
  CHECK(doubling.applications[1] == 5);
  CHECK(doubling.applications.back() == mcpspec::kMaxSchemaWork);
}

TEST_CASE("schema work bound: costly definitions count only where they can be entered", "[schema][guard]") {
  json defs = {{"d0", {{"type", "integer"}}}};
  for (int i = 1; i <= 30; ++i) {
    json ref = {{"$ref", "#/definitions/d" + std::to_string(i - 1)}};
    defs["d" + std::to_string(i)] = {{"allOf", {ref, ref}}};
  }
  json schema = {{"definitions", defs}, {"type", "integer"}};
  // Checked against the root, which applies none of them: cheap.
  CHECK(bounds_of(schema).applications.front() == 1);
  CHECK_NOTHROW(mcpspec::check_value_within_limits(bounds_of(schema), json(5)));
  // A caller applying any definition of the file (a --schema file) gets the costliest.
  auto any = bounds_of(schema, mcpspec::SchemaEntry::Any);
  CHECK(any.applications.front() == mcpspec::kMaxSchemaWork);
  CHECK_THROWS_AS(mcpspec::check_value_within_limits(any, json(5)), mcpspec::SchemaBeyondLimits);
}

TEST_CASE("schema work bound: error bookkeeping grows with depth under oneOf", "[schema][guard]") {
  json again = json::parse(R"({"items": {"oneOf": [{"type": "string"}, {"$ref": "#"}], "type": "object"}})");
  auto b = bounds_of(again);
  CHECK(b.copying_per_value == 1);
  CHECK(bounds_of({{"items", {{"type", "string"}}}}).copying_per_value == 0);
  json shallow = json::array({1}), deep = json::array({1});
  for (int i = 0; i < 10; ++i) shallow = json::array({shallow});
  for (int i = 0; i < 400; ++i) deep = json::array({deep});
  auto small = mcpspec::check_value_within_limits(b, shallow);
  auto large = mcpspec::check_value_within_limits(b, deep);
  CHECK(small.explain < mcpspec::kMaxSchemaWork);
  CHECK(large.decide < mcpspec::kMaxSchemaWork);  // deciding stays affordable
  CHECK(large.explain == mcpspec::kMaxSchemaWork);  // explaining does not
}
