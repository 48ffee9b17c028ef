#pragma once
// A small, strict XML 1.0 reader for the JUnit tests: it accepts only well-formed documents
// (one root, matching tags, quoted unique attributes, known entities, legal characters, UTF-8)
// and returns the element tree, so the tests can check counts and attributes of what we wrote.
#include <cctype>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace mcpspec::testing {

struct XmlNode {
  std::string name;
  std::map<std::string, std::string> attrs;
  std::string text;  // character data directly inside, entities decoded
  std::vector<std::unique_ptr<XmlNode>> children;

  std::vector<const XmlNode*> all(const std::string& n) const {
    std::vector<const XmlNode*> out;
    for (const auto& c : children)
      if (c->name == n) out.push_back(c.get());
    return out;
  }
  const XmlNode* first(const std::string& n) const {
    for (const auto& c : children)
      if (c->name == n) return c.get();
    return nullptr;
  }
  std::string attr(const std::string& k) const {
    auto it = attrs.find(k);
    if (it == attrs.end()) throw std::runtime_error("no attribute " + k + " on <" + name + ">");
    return it->second;
  }
};

class XmlReader {
 public:
  explicit XmlReader(const std::string& s) : s_(s) {}

  std::unique_ptr<XmlNode> parse() {
    check_chars();
    if (s_.compare(0, 5, "<?xml") == 0) {
      const auto end = s_.find("?>");
      if (end == std::string::npos) fail("unterminated XML declaration");
      i_ = end + 2;
    }
    skip_space();
    auto root = element();
    skip_space();
    if (i_ != s_.size()) fail("content after the root element");
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("XML not well-formed at byte " + std::to_string(i_) + ": " + what);
  }

  // Every character must be a legal XML 1.0 Char and the bytes valid UTF-8.
  void check_chars() {
    for (std::size_t k = 0; k < s_.size();) {
      const auto c = static_cast<unsigned char>(s_[k]);
      std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
      if (n == 0 || k + n > s_.size()) { i_ = k; fail("invalid UTF-8"); }
      std::uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
      for (std::size_t j = 1; j < n; ++j) {
        const auto b = static_cast<unsigned char>(s_[k + j]);
        if ((b & 0xC0) != 0x80) { i_ = k; fail("invalid UTF-8"); }
        cp = (cp << 6) | (b & 0x3F);
      }
      const std::uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
      if (cp < min[n]) { i_ = k; fail("overlong UTF-8"); }
      const bool ok = cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) ||
                      (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
      if (!ok) { i_ = k; fail("character not allowed in XML 1.0: U+" + std::to_string(cp)); }
      k += n;
    }
  }

  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
  }

  std::string name() {
    const std::size_t start = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '-' || s_[i_] == '_' ||
                              s_[i_] == '.' || s_[i_] == ':'))
      ++i_;
    if (i_ == start) fail("expected a name");
    return s_.substr(start, i_ - start);
  }

  std::string entity() {
    const auto end = s_.find(';', i_);
    if (end == std::string::npos || end - i_ > 10) fail("unterminated entity reference");
    const std::string ref = s_.substr(i_ + 1, end - i_ - 1);
    i_ = end + 1;
    if (ref == "amp") return "&";
    if (ref == "lt") return "<";
    if (ref == "gt") return ">";
    if (ref == "quot") return "\"";
    if (ref == "apos") return "'";
    if (!ref.empty() && ref[0] == '#') {
      const bool hex = ref.size() > 1 && ref[1] == 'x';
      const std::uint32_t cp = static_cast<std::uint32_t>(std::stoul(ref.substr(hex ? 2 : 1), nullptr, hex ? 16 : 10));
      if (!(cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) ||
            (cp >= 0x10000 && cp <= 0x10FFFF)))
        fail("character reference to an illegal character");
      std::string out;
      if (cp < 0x80) out += static_cast<char>(cp);
      else if (cp < 0x800) { out += static_cast<char>(0xC0 | (cp >> 6)); out += static_cast<char>(0x80 | (cp & 0x3F)); }
      else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
      } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
      }
      return out;
    }
    fail("unknown entity &" + ref + ";");
  }

  std::unique_ptr<XmlNode> element() {
    if (i_ >= s_.size() || s_[i_] != '<') fail("expected '<'");
    ++i_;
    auto node = std::make_unique<XmlNode>();
    node->name = name();
    for (;;) {
      const std::size_t before = i_;
      skip_space();
      if (i_ >= s_.size()) fail("unterminated start tag");
      if (s_.compare(i_, 2, "/>") == 0) {
        i_ += 2;
        return node;
      }
      if (s_[i_] == '>') {
        ++i_;
        break;
      }
      if (i_ == before) fail("attributes must be separated by white space");
      const std::string key = name();
      skip_space();
      if (i_ >= s_.size() || s_[i_] != '=') fail("expected '=' after attribute " + key);
      ++i_;
      skip_space();
      if (i_ >= s_.size() || (s_[i_] != '"' && s_[i_] != '\'')) fail("attribute value must be quoted");
      const char quote = s_[i_++];
      std::string value;
      while (i_ < s_.size() && s_[i_] != quote) {
        if (s_[i_] == '<') fail("'<' in attribute value");
        if (s_[i_] == '&') value += entity();
        else value += s_[i_++];
      }
      if (i_ >= s_.size()) fail("unterminated attribute value");
      ++i_;
      if (!node->attrs.emplace(key, value).second) fail("duplicate attribute " + key);
    }
    // Content until the matching end tag.
    for (;;) {
      if (i_ >= s_.size()) fail("missing </" + node->name + ">");
      if (s_.compare(i_, 2, "</") == 0) {
        i_ += 2;
        const std::string end = name();
        if (end != node->name) fail("</" + end + "> closes <" + node->name + ">");
        skip_space();
        if (i_ >= s_.size() || s_[i_] != '>') fail("expected '>'");
        ++i_;
        return node;
      }
      if (s_.compare(i_, 4, "<!--") == 0) {
        const auto end = s_.find("-->", i_);
        if (end == std::string::npos) fail("unterminated comment");
        i_ = end + 3;
        continue;
      }
      if (s_[i_] == '<') {
        node->children.push_back(element());
        continue;
      }
      if (s_[i_] == '&') {
        node->text += entity();
        continue;
      }
      if (s_.compare(i_, 3, "]]>") == 0) fail("']]>' in character data");
      node->text += s_[i_++];
    }
  }

  const std::string& s_;
  std::size_t i_ = 0;
};

inline std::unique_ptr<XmlNode> parse_xml(const std::string& s) { return XmlReader(s).parse(); }

}  // namespace mcpspec::testing
