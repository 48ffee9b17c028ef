// Parameter validation against the tool specs, and the schemas published for them.
#include <catch2/catch.hpp>

#include "rpc_error.hpp"
#include "tool_arguments.hpp"
#include "tool_catalog.hpp"

using namespace clariad;

namespace {

RpcError refusal(const std::string& tool, const Json& args) {
  try {
    check_arguments(*find_tool(tool), args, "/p");
  } catch (const RpcError& e) {
    return e;
  }
  FAIL("arguments were accepted: " << args.dump());
  return RpcError(ErrorCode::InternalError, "unreachable");
}

}  // namespace

TEST_CASE("valid arguments are returned typed", "[arguments]") {
  const ToolArguments a = check_arguments(*find_tool("long_running_operation"),
                                          {{"operation_name", "Complex Analysis"}, {"duration_seconds", 0.25}}, "/p");
  CHECK(a.text("operation_name") == "Complex Analysis");
  CHECK(a.number("duration_seconds") == 0.25);
  CHECK_FALSE(a.text("conversation_id"));

  const ToolArguments v = check_arguments(*find_tool("vision_agent"), {{"project_description", "x"}}, "/p");
  CHECK_FALSE(v.text("conversation_id"));
}

TEST_CASE("duration bounds are inclusive and integers or fractions are accepted", "[arguments]") {
  const ToolSpec& op = *find_tool("long_running_operation");
  for (double d : {0.0, 0.001, 1.0, 10.0, 599.5, 600.0}) {
    CHECK_NOTHROW(check_arguments(op, {{"operation_name", "o"}, {"duration_seconds", d}}, "/p"));
  }
  CHECK_NOTHROW(check_arguments(op, {{"operation_name", "o"}, {"duration_seconds", 3}}, "/p"));
  const RpcError e = refusal("long_running_operation", {{"operation_name", "o"}, {"duration_seconds", 600.5}});
  CHECK(e.code() == ErrorCode::InvalidParams);
  CHECK_THAT(e.detail(), Catch::Contains("between 0 and 600"));
  CHECK(e.pointer() == "/p/duration_seconds");
  CHECK(refusal("long_running_operation", {{"operation_name", "o"}, {"duration_seconds", -0.1}}).pointer() ==
        "/p/duration_seconds");
}

TEST_CASE("string limits count characters, not bytes", "[arguments]") {
  std::string name;
  for (std::size_t i = 0; i < kMaxNameChars; ++i) name += "\xC3\xA9";  // é: 2 bytes, 1 character
  CHECK_NOTHROW(check_arguments(*find_tool("architecture_agent"), {{"project_name", name}, {"requirements", "r"}}, "/p"));
  name += "e";
  const RpcError e = refusal("architecture_agent", {{"project_name", name}, {"requirements", "r"}});
  CHECK(e.pointer() == "/p/project_name");
  CHECK_THAT(e.detail(), Catch::Contains("201 characters"));
}

TEST_CASE("single-line parameters refuse control characters", "[arguments]") {
  CHECK(refusal("vision_agent", {{"project_description", "x"}, {"conversation_id", "a\nb"}}).pointer() == "/p/conversation_id");
  CHECK(refusal("architecture_agent", {{"project_name", "a\tb"}, {"requirements", "r"}}).pointer() == "/p/project_name");
  // Multi-line text is the point of descriptions and requirements.
  CHECK_NOTHROW(check_arguments(*find_tool("architecture_agent"), {{"project_name", "P"}, {"requirements", "a\nb"}}, "/p"));
}

TEST_CASE("unknown parameters are named, with JSON Pointer escaping", "[arguments]") {
  const RpcError e = refusal("vision_agent", {{"project_description", "x"}, {"a/b~c", 1}});
  CHECK(e.pointer() == "/p/a~1b~0c");
  CHECK_THAT(e.detail(), Catch::Contains("unknown parameter") && Catch::Contains("project_description, conversation_id"));
}

TEST_CASE("published schema matches the validation rules", "[arguments]") {
  const OJson schema = parameters_schema(*find_tool("long_running_operation"));
  CHECK(schema.at("additionalProperties") == false);
  CHECK(schema.at("properties").at("duration_seconds").at("minimum") == 0.0);
  CHECK(schema.at("properties").at("duration_seconds").at("maximum") == 600.0);
  CHECK(schema.at("properties").at("operation_name").at("maxLength") == kMaxNameChars);
  const OJson vision = parameters_schema(*find_tool("vision_agent"));
  CHECK(vision.at("properties").at("project_description").at("maxLength") == kMaxDescriptionChars);
  CHECK(vision.at("properties").at("conversation_id").at("maxLength") == kMaxConversationIdChars);
  // Field order follows the document's example: type, properties, required.
  CHECK(vision.begin().key() == "type");
}
