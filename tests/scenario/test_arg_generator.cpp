// generate_arguments(): tool arguments from an inputSchema in the four modes. Besides exact
// expected values, every valid-mode result for a draft-07 schema is cross-checked with valijson,
// so "a valid value" is judged by an independent validator, not by the generator's own rules.
#include <catch2/catch.hpp>

#include <string>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include "harness/scenario/substitute.hpp"

using nlohmann::json;
using mcpspec::scenario::generate_arguments;
using mcpspec::scenario::SubstitutionError;

namespace {

json gen(const std::string& schema, const std::string& mode = "minimal") {
  return generate_arguments(json::parse(schema), mode);
}

// Whether `value` satisfies `schema` according to valijson (draft 7 rules).
bool valid(const json& schema, const json& value) {
  valijson::Schema compiled;
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  valijson::adapters::NlohmannJsonAdapter schema_adapter(schema);
  parser.populateSchema(schema_adapter, compiled);
  valijson::Validator validator;
  valijson::adapters::NlohmannJsonAdapter value_adapter(value);
  return validator.validate(compiled, value_adapter, nullptr);
}

// Generates in a valid mode and checks the result against the schema with valijson.
json valid_gen(const std::string& schema, const std::string& mode = "minimal") {
  const json s = json::parse(schema);
  json out = generate_arguments(s, mode);
  INFO("schema " << schema << "\nmode " << mode << "\ngenerated " << out.dump());
  CHECK(valid(s, out));
  return out;
}

// The property a wrong-type/missing-required call is about must make valijson reject it.
json invalid_gen(const std::string& schema, const std::string& mode) {
  const json s = json::parse(schema);
  json out = generate_arguments(s, mode);
  INFO("schema " << schema << "\nmode " << mode << "\ngenerated " << out.dump());
  CHECK_FALSE(valid(s, out));
  return out;
}

std::string error_of(const std::string& schema, const std::string& mode = "minimal") {
  try {
    generate_arguments(json::parse(schema), mode);
  } catch (const SubstitutionError& e) {
    return e.what();
  }
  FAIL("no SubstitutionError for " << schema << " in mode " << mode);
  return "";
}

// A tool schema in the shape MCP servers declare.
const char* const kSearchTool = R"({
  "type": "object",
  "properties": {
    "query": {"type": "string", "minLength": 1},
    "limit": {"type": "integer", "minimum": 1, "maximum": 100},
    "caseSensitive": {"type": "boolean"},
    "tags": {"type": "array", "items": {"type": "string"}},
    "since": {"type": "string", "format": "date-time"}
  },
  "required": ["query", "limit"],
  "additionalProperties": false
})";

}  // namespace

TEST_CASE("the four modes on a typical tool schema", "[arggen]") {
  CHECK(valid_gen(kSearchTool, "minimal") == json::parse(R"({"query": "example", "limit": 1})"));
  CHECK(valid_gen(kSearchTool, "full") ==
        json::parse(R"({"query": "example", "limit": 1, "caseSensitive": false, "tags": ["example"],
                        "since": "2025-01-01T00:00:00Z"})"));
  // The first required property (query) gets the wrong type, the rest stays valid.
  CHECK(invalid_gen(kSearchTool, "wrong-type") == json::parse(R"({"query": 12345, "limit": 1})"));
  CHECK(invalid_gen(kSearchTool, "missing-required") == json::parse(R"({"limit": 1})"));
}

TEST_CASE("generation is deterministic", "[arggen]") {
  for (const char* mode : {"minimal", "full", "wrong-type", "missing-required"})
    CHECK(gen(kSearchTool, mode) == gen(kSearchTool, mode));
}

TEST_CASE("no required properties and no properties at all", "[arggen]") {
  const char* optional_only = R"({"type": "object", "properties": {"b": {"type": "string"}, "a": {"type": "integer"}}})";
  CHECK(valid_gen(optional_only, "minimal") == json::object());
  CHECK(valid_gen(optional_only, "full") == json::parse(R"({"a": 1, "b": "example"})"));
  CHECK(valid_gen(optional_only, "missing-required") == json::object());  // nothing to leave out
  // With nothing required, the first property in (sorted) key order gets the wrong type.
  CHECK(invalid_gen(optional_only, "wrong-type") == json::parse(R"({"a": "wrong-type"})"));
  for (const char* mode : {"minimal", "full", "wrong-type", "missing-required"}) {
    CHECK(gen(R"({"type": "object"})", mode) == json::object());
    CHECK(gen(R"({})", mode) == json::object());
  }
}

TEST_CASE("a missing type is inferred from the keywords", "[arggen]") {
  // No "type" at the top: properties make it an object.
  CHECK(valid_gen(R"({"properties": {"x": {"type": "string"}}, "required": ["x"]})") == json{{"x", "example"}});
  CHECK(valid_gen(R"({"properties": {"s": {"minLength": 9}, "n": {"minimum": 7}, "l": {"items": {"type": "integer"}, "minItems": 1},
                                     "o": {"properties": {"k": {"const": 1}}, "required": ["k"]}, "any": {}},
                      "required": ["s", "n", "l", "o", "any"]})") ==
        json::parse(R"({"s": "examplexx", "n": 7, "l": [1], "o": {"k": 1}, "any": "example"})"));
}

TEST_CASE("type arrays use the first type that is not null", "[arggen]") {
  CHECK(valid_gen(R"({"properties": {"v": {"type": ["null", "integer"]}}, "required": ["v"]})") == json{{"v", 1}});
  CHECK(valid_gen(R"({"properties": {"v": {"type": ["string", "integer"]}}, "required": ["v"]})") == json{{"v", "example"}});
  CHECK(valid_gen(R"({"properties": {"v": {"type": ["null"]}}, "required": ["v"]})") == json{{"v", nullptr}});
  CHECK(valid_gen(R"({"properties": {"v": {"type": "null"}}, "required": ["v"]})") == json{{"v", nullptr}});
}

TEST_CASE("const, enum and default", "[arggen]") {
  CHECK(valid_gen(R"({"properties": {"v": {"const": "fixed"}}, "required": ["v"]})") == json{{"v", "fixed"}});
  CHECK(valid_gen(R"({"properties": {"v": {"type": "object", "const": {"a": [1]}}}, "required": ["v"]})") ==
        json::parse(R"({"v": {"a": [1]}})"));
  CHECK(valid_gen(R"({"properties": {"v": {"enum": ["red", "green"]}}, "required": ["v"]})") == json{{"v", "red"}});
  CHECK(valid_gen(R"({"properties": {"v": {"type": "integer", "enum": [7, 9]}}, "required": ["v"]})") == json{{"v", 7}});
  // A default that fits the schema is used...
  CHECK(valid_gen(R"({"properties": {"v": {"type": "integer", "minimum": 1, "default": 42}}, "required": ["v"]})") ==
        json{{"v", 42}});
  CHECK(valid_gen(R"({"properties": {"v": {"enum": ["a", "b"], "default": "b"}}, "required": ["v"]})") == json{{"v", "b"}});
  CHECK(valid_gen(R"({"properties": {"v": {"type": "string", "default": ""}}, "required": ["v"]})") == json{{"v", ""}});
  // ...one that does not is ignored: wrong type, out of range, not listed, too short.
  CHECK(valid_gen(R"({"properties": {"v": {"type": "integer", "default": "ten"}}, "required": ["v"]})") == json{{"v", 1}});
  CHECK(valid_gen(R"({"properties": {"v": {"type": "integer", "minimum": 5, "default": 0}}, "required": ["v"]})") ==
        json{{"v", 5}});
  CHECK(valid_gen(R"({"properties": {"v": {"enum": ["a", "b"], "default": "c"}}, "required": ["v"]})") == json{{"v", "a"}});
  CHECK(valid_gen(R"({"properties": {"v": {"type": "string", "minLength": 3, "default": "ab"}}, "required": ["v"]})") ==
        json{{"v", "exampl" "e"}});
  CHECK(valid_gen(R"({"properties": {"v": {"type": "integer", "default": 2.5}}, "required": ["v"]})") == json{{"v", 1}});
}

TEST_CASE("string formats get fixed well-formed values", "[arggen]") {
  CHECK(valid_gen(R"({"properties": {"v": {"type": "string", "format": "uri"}}, "required": ["v"]})") ==
        json{{"v", "https://example.com"}});
  CHECK(valid_gen(R"({"properties": {"v": {"type": "string", "format": "date-time"}}, "required": ["v"]})") ==
        json{{"v", "2025-01-01T00:00:00Z"}});
  CHECK(valid_gen(R"({"properties": {"v": {"type": "string", "format": "email"}}, "required": ["v"]})") ==
        json{{"v", "a@example.com"}});
  CHECK(valid_gen(R"({"properties": {"v": {"type": "string", "format": "date"}}, "required": ["v"]})") ==
        json{{"v", "2025-01-01"}});
  CHECK(valid_gen(R"({"properties": {"v": {"type": "string", "format": "uuid"}}, "required": ["v"]})") ==
        json{{"v", "00000000-0000-4000-8000-000000000000"}});
  // An unknown format is not a reason to fail.
  CHECK(valid_gen(R"({"properties": {"v": {"type": "string", "format": "x-custom"}}, "required": ["v"]})") ==
        json{{"v", "example"}});
}

TEST_CASE("minLength and maxLength shape strings", "[arggen]") {
  CHECK(valid_gen(R"({"properties": {"v": {"type": "string", "minLength": 10}}, "required": ["v"]})") ==
        json{{"v", "examplexxx"}});
  CHECK(valid_gen(R"({"properties": {"v": {"type": "string", "maxLength": 3}}, "required": ["v"]})") == json{{"v", "exa"}});
  CHECK(valid_gen(R"({"properties": {"v": {"type": "string", "maxLength": 0}}, "required": ["v"]})") == json{{"v", ""}});
  CHECK(valid_gen(R"({"properties": {"v": {"type": "string", "minLength": 4, "maxLength": 4}}, "required": ["v"]})") ==
        json{{"v", "exam"}});
  CHECK_THAT(error_of(R"({"properties": {"v": {"type": "string", "minLength": 5, "maxLength": 2}}, "required": ["v"]})"),
             Catch::Contains("inputSchema/properties/v: minLength 5 is greater than maxLength 2"));
  CHECK_THAT(error_of(R"({"properties": {"v": {"type": "string", "minLength": "3"}}, "required": ["v"]})"),
             Catch::Contains("inputSchema/properties/v/minLength: minLength must be a non-negative integer"));
  CHECK_THAT(error_of(R"({"properties": {"v": {"type": "string", "minLength": 100000000}}, "required": ["v"]})"),
             Catch::Contains("more than we generate"));
}

TEST_CASE("integers stay inside their bounds", "[arggen]") {
  auto one = [](const std::string& prop) {
    return valid_gen(R"({"properties": {"v": )" + prop + R"(}, "required": ["v"]})")["v"];
  };
  CHECK(one(R"({"type": "integer"})") == 1);
  CHECK(one(R"({"type": "integer", "minimum": 5})") == 5);
  CHECK(one(R"({"type": "integer", "minimum": -5})") == -5);
  CHECK(one(R"({"type": "integer", "minimum": 1.5})") == 2);
  CHECK(one(R"({"type": "integer", "exclusiveMinimum": 5})") == 6);
  CHECK(one(R"({"type": "integer", "exclusiveMinimum": 5.5})") == 6);
  CHECK(one(R"({"type": "integer", "maximum": -3})") == -3);
  CHECK(one(R"({"type": "integer", "exclusiveMaximum": 0})") == -1);
  CHECK(one(R"({"type": "integer", "maximum": 100})") == 1);
  CHECK(one(R"({"type": "integer", "minimum": 10, "maximum": 10})") == 10);
  CHECK(one(R"({"type": "integer", "minimum": 3, "multipleOf": 5})") == 5);
  CHECK(one(R"({"type": "integer", "multipleOf": 2.5})") == 5);  // 2.5 itself is no integer
  CHECK(one(R"({"type": "integer", "maximum": -3, "multipleOf": 2})") == -4);
  CHECK(one(R"({"type": "integer", "minimum": 9007199254740993})").get<std::int64_t>() == 9007199254740993);
  CHECK(one(R"({"type": "integer", "minimum": 0})").is_number_integer());
  // draft-04 style boolean exclusiveMinimum/Maximum (not checked with the draft-7 validator).
  CHECK(gen(R"({"properties": {"v": {"type": "integer", "minimum": 5, "exclusiveMinimum": true}}, "required": ["v"]})") ==
        json{{"v", 6}});
  CHECK(gen(R"({"properties": {"v": {"type": "integer", "maximum": 0, "exclusiveMaximum": true}}, "required": ["v"]})") ==
        json{{"v", -1}});
  CHECK_THAT(error_of(R"({"properties": {"v": {"type": "integer", "minimum": 2, "maximum": 1}}, "required": ["v"]})"),
             Catch::Contains("inputSchema/properties/v: no integer satisfies the bounds >= 2 and <= 1"));
  CHECK_THAT(error_of(R"({"properties": {"v": {"type": "integer", "exclusiveMinimum": 1, "exclusiveMaximum": 2}}, "required": ["v"]})"),
             Catch::Contains("no integer satisfies"));
  CHECK_THAT(error_of(R"({"properties": {"v": {"type": "integer", "minimum": 1, "maximum": 4, "multipleOf": 5}}, "required": ["v"]})"),
             Catch::Contains("no integer multiple of 5"));
  CHECK_THAT(error_of(R"({"properties": {"v": {"type": "integer", "minimum": 1e30}}, "required": ["v"]})"),
             Catch::Contains("outside 64-bit integers"));
  CHECK_THAT(error_of(R"({"properties": {"v": {"type": "integer", "minimum": "0"}}, "required": ["v"]})"),
             Catch::Contains("inputSchema/properties/v/minimum: minimum must be a number"));
  CHECK_THAT(error_of(R"({"properties": {"v": {"type": "integer", "multipleOf": 0}}, "required": ["v"]})"),
             Catch::Contains("multipleOf must be a number greater than 0"));
}

TEST_CASE("numbers stay inside their bounds", "[arggen]") {
  auto one = [](const std::string& prop) {
    return valid_gen(R"({"properties": {"v": )" + prop + R"(}, "required": ["v"]})")["v"];
  };
  CHECK(one(R"({"type": "number"})") == 1.5);
  CHECK(one(R"({"type": "number"})").is_number_float());
  CHECK(one(R"({"type": "number", "minimum": 10})") == 10.0);
  CHECK(one(R"({"type": "number", "exclusiveMinimum": 2})") == 3.0);
  CHECK(one(R"({"type": "number", "maximum": 0})") == 0.0);
  CHECK(one(R"({"type": "number", "exclusiveMaximum": -1})") == -2.0);
  CHECK(one(R"({"type": "number", "minimum": 0, "maximum": 1})") == 0.0);
  CHECK(one(R"({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1})") == 0.5);
  CHECK(one(R"({"type": "number", "minimum": 1, "maximum": 2})") == 1.5);
  CHECK(one(R"({"type": "number", "multipleOf": 4})") == 4.0);
  CHECK(one(R"({"type": "number", "minimum": 2, "multipleOf": 0.25})") == 2.0);
  CHECK(one(R"({"type": "number", "multipleOf": 0.1})") == 1.5);
  CHECK_THAT(error_of(R"({"properties": {"v": {"type": "number", "exclusiveMinimum": 1, "exclusiveMaximum": 1}}, "required": ["v"]})"),
             Catch::Contains("no number satisfies the bounds > 1 and < 1"));
  CHECK_THAT(error_of(R"({"properties": {"v": {"type": "number", "minimum": 1, "maximum": 1.5, "multipleOf": 2}}, "required": ["v"]})"),
             Catch::Contains("no multiple of 2"));
}

TEST_CASE("booleans, arrays and tuples", "[arggen]") {
  CHECK(valid_gen(R"({"properties": {"b": {"type": "boolean"}}, "required": ["b"]})") == json{{"b", false}});
  CHECK(valid_gen(R"({"properties": {"a": {"type": "array", "items": {"type": "string"}}}, "required": ["a"]})") ==
        json{{"a", json::array()}});
  CHECK(valid_gen(R"({"properties": {"a": {"type": "array", "items": {"type": "integer", "minimum": 3}, "minItems": 2}}, "required": ["a"]})") ==
        json::parse(R"({"a": [3, 3]})"));
  CHECK(valid_gen(R"({"properties": {"a": {"type": "array", "items": {"type": "string"}}}, "required": ["a"]})", "full") ==
        json::parse(R"({"a": ["example"]})"));
  CHECK(valid_gen(R"({"properties": {"a": {"type": "array", "maxItems": 0}}, "required": ["a"]})", "full") ==
        json::parse(R"({"a": []})"));
  // uniqueItems asks for distinct elements.
  CHECK(valid_gen(R"({"properties": {"a": {"type": "array", "items": {"type": "integer"}, "minItems": 3, "uniqueItems": true}}, "required": ["a"]})") ==
        json::parse(R"({"a": [1, 2, 3]})"));
  CHECK(valid_gen(R"({"properties": {"a": {"type": "array", "items": {"type": "string"}, "minItems": 3, "uniqueItems": true}}, "required": ["a"]})") ==
        json::parse(R"({"a": ["example", "example1", "example2"]})"));
  CHECK(valid_gen(R"({"properties": {"a": {"type": "array", "items": {"enum": ["x", "y"]}, "minItems": 2, "uniqueItems": true}}, "required": ["a"]})") ==
        json::parse(R"({"a": ["x", "y"]})"));
  // Tuples: draft-07 items array with additionalItems, and 2020-12 prefixItems.
  CHECK(valid_gen(R"({"properties": {"t": {"type": "array", "items": [{"type": "integer"}, {"type": "string"}],
                                           "additionalItems": {"type": "boolean"}, "minItems": 3}}, "required": ["t"]})") ==
        json::parse(R"({"t": [1, "example", false]})"));
  CHECK(gen(R"({"properties": {"t": {"type": "array", "prefixItems": [{"type": "integer"}, {"const": "k"}], "minItems": 2}}, "required": ["t"]})") ==
        json::parse(R"({"t": [1, "k"]})"));
  CHECK_THAT(error_of(R"({"properties": {"t": {"type": "array", "items": [{"type": "integer"}], "additionalItems": false, "minItems": 2}}, "required": ["t"]})"),
             Catch::Contains("inputSchema/properties/t/additionalItems: the schema false accepts no value"));
  CHECK_THAT(error_of(R"({"properties": {"a": {"type": "array", "minItems": 3, "maxItems": 1}}, "required": ["a"]})"),
             Catch::Contains("inputSchema/properties/a: minItems 3 is greater than maxItems 1"));
  CHECK_THAT(error_of(R"({"properties": {"a": {"type": "array", "minItems": 5000}}, "required": ["a"]})"),
             Catch::Contains("more than we generate"));
}

TEST_CASE("nested objects: required recursively, optional only in full mode", "[arggen]") {
  const char* nested = R"({"type": "object", "properties": {
      "outer": {"type": "object", "properties": {
          "inner": {"type": "object", "properties": {"leaf": {"type": "integer"}, "opt": {"type": "string"}}, "required": ["leaf"]},
          "note": {"type": "string"}},
        "required": ["inner"]},
      "extra": {"type": "boolean"}},
    "required": ["outer"]})";
  CHECK(valid_gen(nested, "minimal") == json::parse(R"({"outer": {"inner": {"leaf": 1}}})"));
  CHECK(valid_gen(nested, "full") ==
        json::parse(R"({"outer": {"inner": {"leaf": 1, "opt": "example"}, "note": "example"}, "extra": false})"));
  CHECK(invalid_gen(nested, "wrong-type") == json::parse(R"({"outer": "wrong-type"})"));
  CHECK(invalid_gen(nested, "missing-required") == json::object());
  // A required name without a property schema accepts anything; additionalProperties supplies it.
  CHECK(valid_gen(R"({"type": "object", "required": ["free"]})") == json{{"free", "example"}});
  CHECK(valid_gen(R"({"type": "object", "additionalProperties": {"type": "integer"}, "required": ["n"]})") == json{{"n", 1}});
}

TEST_CASE("$ref to definitions and $defs in the same schema", "[arggen]") {
  CHECK(valid_gen(R"({"definitions": {"Point": {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}, "required": ["x", "y"]}},
                      "properties": {"p": {"$ref": "#/definitions/Point"}}, "required": ["p"]})") ==
        json::parse(R"({"p": {"x": 1.5, "y": 1.5}})"));
  CHECK(gen(R"({"$defs": {"Name": {"type": "string", "minLength": 8}}, "properties": {"n": {"$ref": "#/$defs/Name"}}, "required": ["n"]})") ==
        json{{"n", "examplex"}});
  // A chain of references, a percent-encoded name, and keywords beside $ref.
  CHECK(gen(R"({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"type": "integer", "minimum": 4}, "a b": {"const": 1}},
                "properties": {"x": {"$ref": "#/$defs/A"}, "y": {"$ref": "#/$defs/a%20b"}, "z": {"$ref": "#/$defs/B", "minimum": 9}},
                "required": ["x", "y", "z"]})") == json::parse(R"({"x": 4, "y": 1, "z": 9})"));
  // Boolean definitions.
  CHECK(gen(R"({"$defs": {"T": true}, "properties": {"t": {"$ref": "#/$defs/T", "description": "d"}}, "required": ["t"]})") ==
        json{{"t", "example"}});
  CHECK_THAT(error_of(R"({"$defs": {"F": false}, "properties": {"f": {"$ref": "#/$defs/F"}}, "required": ["f"]})"),
             Catch::Contains("inputSchema/properties/f/$ref: the schema false accepts no value"));
  // Wrong-type follows the reference to find the type it must avoid.
  CHECK(gen(R"({"$defs": {"N": {"type": "integer"}}, "properties": {"n": {"$ref": "#/$defs/N"}}, "required": ["n"]})", "wrong-type") ==
        json{{"n", "wrong-type"}});
}

TEST_CASE("recursive schemas end", "[arggen]") {
  const char* tree = R"({"$defs": {"Node": {"type": "object", "properties": {"name": {"type": "string"},
                                             "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
                                             "required": ["name"]}},
                         "properties": {"root": {"$ref": "#/$defs/Node"}}, "required": ["root"]})";
  CHECK(valid_gen(tree, "minimal") == json::parse(R"({"root": {"name": "example"}})"));
  // "full" descends a few levels into the optional children, then stops.
  json full = valid_gen(tree, "full");
  int levels = 0;
  for (const json* node = &full["root"]; node->contains("children") && !(*node)["children"].empty(); node = &(*node)["children"][0])
    ++levels;
  CHECK(levels > 1);
  CHECK(levels < 10);
  // A reference cycle that is required can never end: reported, not recursed forever.
  CHECK_THAT(error_of(R"({"$defs": {"L": {"type": "object", "properties": {"next": {"$ref": "#/$defs/L"}}, "required": ["next"]}},
                          "properties": {"l": {"$ref": "#/$defs/L"}}, "required": ["l"]})"),
             Catch::Contains("nested deeper than 64 levels"));
  CHECK_THAT(error_of(R"({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}, "properties": {"a": {"$ref": "#/$defs/A"}}, "required": ["a"]})"),
             Catch::Contains("$ref chain longer than 32 hops"));
  CHECK_THAT(error_of(R"({"allOf": [{"$ref": "#"}]})"), Catch::Contains("nested deeper than"));
}

TEST_CASE("bad references are reported with their place", "[arggen]") {
  CHECK_THAT(error_of(R"({"properties": {"a": {"$ref": "#/$defs/Missing"}}, "required": ["a"]})"),
             Catch::Contains("inputSchema/properties/a/$ref: \"#/$defs/Missing\" does not exist in the schema"));
  CHECK_THAT(error_of(R"({"properties": {"a": {"$ref": "other.json#/X"}}, "required": ["a"]})"),
             Catch::Contains("only references inside the same schema"));
  CHECK_THAT(error_of(R"({"properties": {"a": {"$ref": "#no-slash"}}, "required": ["a"]})"),
             Catch::Contains("not a valid JSON Pointer fragment"));
  CHECK_THAT(error_of(R"({"properties": {"a": {"$ref": 5}}, "required": ["a"]})"), Catch::Contains("$ref must be a string"));
  CHECK_THAT(error_of(R"({"properties": {"a": {"$ref": "#/%zz"}}, "required": ["a"]})"), Catch::Contains("bad percent-escape"));
}

TEST_CASE("anyOf and oneOf take the first branch that is not null", "[arggen]") {
  CHECK(valid_gen(R"({"properties": {"v": {"anyOf": [{"type": "null"}, {"type": "string", "format": "uri"}]}}, "required": ["v"]})") ==
        json{{"v", "https://example.com"}});
  CHECK(valid_gen(R"({"properties": {"v": {"oneOf": [{"type": "integer", "minimum": 3}, {"type": "string"}]}}, "required": ["v"]})") ==
        json{{"v", 3}});
  CHECK(valid_gen(R"({"properties": {"v": {"anyOf": [{"type": "null"}]}}, "required": ["v"]})") == json{{"v", nullptr}});
  CHECK(valid_gen(R"({"definitions": {"S": {"type": "string"}},
                      "properties": {"v": {"anyOf": [{"type": "null"}, {"$ref": "#/definitions/S"}]}}, "required": ["v"]})") ==
        json{{"v", "example"}});
  // wrong-type avoids every type the branches allow.
  CHECK(invalid_gen(R"({"properties": {"v": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}, "required": ["v"]})", "wrong-type") ==
        json{{"v", "wrong-type"}});
  CHECK(invalid_gen(R"({"properties": {"v": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}, "required": ["v"]})", "wrong-type") ==
        json{{"v", true}});
  CHECK_THAT(error_of(R"({"properties": {"v": {"anyOf": []}}, "required": ["v"]})"),
             Catch::Contains("inputSchema/properties/v/anyOf: anyOf must be a non-empty array"));
}

TEST_CASE("allOf parts are combined", "[arggen]") {
  CHECK(valid_gen(R"({"allOf": [{"properties": {"a": {"type": "string"}}, "required": ["a"]},
                                {"properties": {"b": {"type": "integer", "minimum": 2}}, "required": ["b"]}]})") ==
        json::parse(R"({"a": "example", "b": 2})"));
  CHECK(valid_gen(R"({"properties": {"v": {"allOf": [{"type": "integer"}, {"minimum": 7}]}}, "required": ["v"]})") == json{{"v", 7}});
}

TEST_CASE("wrong-type picks a value of a type the property does not allow", "[arggen]") {
  auto wrong = [](const std::string& prop) {
    return invalid_gen(R"({"properties": {"v": )" + prop + R"(}, "required": ["v"]})", "wrong-type")["v"];
  };
  CHECK(wrong(R"({"type": "string"})") == 12345);
  CHECK(wrong(R"({"type": "string", "format": "uri"})") == 12345);
  CHECK(wrong(R"({"type": ["string", "null"]})") == 12345);
  CHECK(wrong(R"({"enum": ["a", "b"]})") == 12345);
  CHECK(wrong(R"({"type": "integer"})") == "wrong-type");
  CHECK(wrong(R"({"type": "number"})") == "wrong-type");
  CHECK(wrong(R"({"type": "boolean"})") == "wrong-type");
  CHECK(wrong(R"({"type": "object"})") == "wrong-type");
  CHECK(wrong(R"({"type": "array"})") == "wrong-type");
  CHECK(wrong(R"({"type": "null"})") == "wrong-type");
  CHECK(wrong(R"({"const": 3})") == "wrong-type");
  // Without "type", JSON Schema accepts every non-number here; the generator still treats the
  // keyword as a hint that a number is meant, and a server that expects one should refuse text.
  CHECK(gen(R"({"properties": {"v": {"minimum": 0}}, "required": ["v"]})", "wrong-type") == json{{"v", "wrong-type"}});
  CHECK(wrong(R"({"type": ["string", "number"]})") == true);
  CHECK(wrong(R"({"type": ["string", "number", "boolean"]})") == json::object());
  CHECK(wrong(R"({"type": ["string", "number", "boolean", "object"]})") == json::array());
  // The other required properties keep valid values.
  CHECK(gen(R"({"properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["b", "a"]})", "wrong-type") ==
        json::parse(R"({"a": "example", "b": "wrong-type"})"));
  // A schema that accepts anything has no wrong type; 12345 is sent anyway.
  CHECK(gen(R"({"properties": {"v": {}}, "required": ["v"]})", "wrong-type") == json{{"v", 12345}});
}

TEST_CASE("missing-required drops the first required property only", "[arggen]") {
  CHECK(invalid_gen(R"({"properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["b", "a"]})",
                    "missing-required") == json{{"a", "example"}});
  CHECK(gen(R"({"properties": {"a": {"type": "string"}}})", "missing-required") == json::object());
}

TEST_CASE("unusable schemas and modes throw SubstitutionError", "[arggen]") {
  CHECK_THAT(error_of(R"([])"), Catch::Contains("inputSchema must be a JSON object, got []"));
  CHECK_THAT(error_of(R"("string")"), Catch::Contains("inputSchema must be a JSON object"));
  CHECK_THAT(error_of(R"({})", "random"),
             Catch::Contains("unknown argument mode \"random\"; known: minimal, full, wrong-type, missing-required"));
  CHECK_THAT(error_of(R"({"type": "string"})"), Catch::Contains("inputSchema/type: is \"string\", but tool arguments are an object"));
  CHECK_THAT(error_of(R"({"properties": {"v": {"type": "strnig"}}, "required": ["v"]})"),
             Catch::Contains("inputSchema/properties/v/type: unknown type \"strnig\""));
  CHECK_THAT(error_of(R"({"properties": [], "required": []})"), Catch::Contains("inputSchema/properties: properties must be an object"));
  CHECK_THAT(error_of(R"({"properties": {}, "required": "a"})"), Catch::Contains("required must be an array of names"));
  CHECK_THAT(error_of(R"({"properties": {}, "required": [1]})"), Catch::Contains("required must be an array of names"));
  CHECK_THAT(error_of(R"({"properties": {"v": 5}, "required": ["v"]})"),
             Catch::Contains("inputSchema/properties/v: a schema must be an object or a boolean, got 5"));
  CHECK_THAT(error_of(R"({"properties": {"v": {"allOf": {}}}, "required": ["v"]})"), Catch::Contains("allOf must be an array"));
  // Nested minItems multiply: 980 arrays of 980 values is refused, not generated (found by
  // fuzz/targets/arg_generator_fuzz.cpp, which timed out on it).
  CHECK_THAT(error_of(R"({"properties": {"a": {"type": "array", "minItems": 980, "items": {"type": "array",
      "minItems": 980, "items": {"type": "string"}}}}, "required": ["a"]})"),
             Catch::Contains("more than 100000 parts"));
  // So do copies of a default: 980 elements whose default nests 200 levels deep are 196 000
  // parts (a campaign input of this shape took 0.65 s optimized, over 10 s under sanitizers).
  json deep = "leaf";
  for (int i = 0; i < 200; ++i) deep = json{{"a", deep}};
  json copies = {{"properties", {{"p", {{"type", "array"}, {"minItems", 980}, {"items", {{"default", deep}}}}}}},
                 {"required", {"p"}}};
  CHECK_THAT(error_of(copies.dump()), Catch::Contains("inputSchema/properties/p/items/default: the arguments would have more than 100000 parts"));
  copies["properties"]["p"]["minItems"] = 400;  // 80 400 parts: generated, each element the default
  json args = generate_arguments(copies, "minimal");
  REQUIRE(args["p"].size() == 400);
  CHECK(args["p"][399] == deep);
  // Text counts in all as well: 1000 strings of 64 KiB are refused, 200 of them are not.
  json wide = {{"properties", {{"s", {{"type", "array"}, {"minItems", 1000},
                                      {"items", {{"type", "string"}, {"minLength", 65536}}}}}}},
               {"required", {"s"}}};
  CHECK_THAT(error_of(wide.dump()), Catch::Contains("inputSchema/properties/s/items: the arguments' strings would total more than 16 MiB"));
  wide["properties"]["s"]["minItems"] = 200;
  CHECK(generate_arguments(wide, "minimal")["s"][199].get<std::string>().size() == 65536);
  // Keys in unexpected shapes never escape as anything but SubstitutionError.
  for (const char* odd : {R"({"properties": {"v": {"type": "string", "format": 5}}, "required": ["v"]})",
                          R"({"properties": {"v": {"type": 5}}, "required": ["v"]})",
                          R"({"properties": {"v": {"enum": 5}}, "required": ["v"]})",
                          R"({"properties": {"v": {"type": "array", "items": 5, "minItems": 1}}, "required": ["v"]})",
                          R"({"properties": {"v": {"type": "array", "uniqueItems": "yes", "minItems": 1}}, "required": ["v"]})",
                          R"({"properties": {"v": {"default": 1, "minLength": "x"}}, "required": ["v"]})",
                          R"({"allOf": [{"properties": 5}, {"required": 7}]})"})
    for (const char* mode : {"minimal", "full", "wrong-type", "missing-required"}) {
      INFO(odd << " / " << mode);
      try {
        generate_arguments(json::parse(odd), mode);
      } catch (const SubstitutionError&) {
      }
    }
}
