#include "mcpref/tool_result.hpp"

namespace mcpref {

Json text_content(const std::string& text) {
  Json c = Json::object();
  c["type"] = "text";
  c["text"] = text;
  return c;
}

Json tool_success(const std::string& text) {
  Json r = Json::object();
  r["content"] = Json::array({text_content(text)});
  return r;
}

Json tool_failure(const std::string& text) {
  Json r = tool_success(text);
  r["isError"] = true;
  return r;
}

}  // namespace mcpref
