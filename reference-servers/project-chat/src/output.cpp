#include "output.hpp"

namespace project_chat {

using mcpref::Json;

namespace {

std::string text_of(const Json& object, const char* key) {
  return object.is_object() && object.contains(key) && object[key].is_string() ? object[key].get<std::string>() : "";
}

}  // namespace

void print_note_list(const Json& result, std::ostream& out) {
  const Json& items = result.is_object() && result.contains("resources") ? result["resources"] : Json();
  std::size_t n = 0;
  if (items.is_array())
    for (const auto& r : items) {
      out << text_of(r, "uri") << "\t" << text_of(r, "name");
      std::string d = text_of(r, "description");
      if (!d.empty()) out << "\t" << d;
      out << "\n";
      ++n;
    }
  if (n == 0) out << "(no notes)\n";
}

void print_note_text(const Json& result, std::ostream& out) {
  const Json& contents = result.is_object() && result.contains("contents") ? result["contents"] : Json();
  if (!contents.is_array()) return;
  for (const auto& c : contents) {
    if (c.is_object() && c.contains("text") && c["text"].is_string()) {
      std::string t = c["text"].get<std::string>();
      out << t;
      if (t.empty() || t.back() != '\n') out << "\n";
    } else if (c.is_object() && c.contains("blob")) {
      out << "(binary content of " << text_of(c, "mimeType") << " not shown)\n";
    }
  }
}

void print_tool_text(const Json& result, std::ostream& out) {
  const Json& content = result.is_object() && result.contains("content") ? result["content"] : Json();
  if (!content.is_array()) return;
  for (const auto& c : content)
    if (c.is_object() && text_of(c, "type") == "text") out << text_of(c, "text") << "\n";
}

void print_tool_list(const Json& result, std::ostream& out) {
  const Json& tools = result.is_object() && result.contains("tools") ? result["tools"] : Json();
  if (!tools.is_array()) return;
  for (const auto& t : tools) out << text_of(t, "name") << "\t" << text_of(t, "description") << "\n";
}

}  // namespace project_chat
