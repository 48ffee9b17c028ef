#include "fuzz/support/json_mutator.hpp"

#include "fuzz/support/mcp_vocabulary.hpp"

#include <algorithm>
#include <functional>
#include <utility>
#include <vector>

namespace mcpspec::fuzz {

using nlohmann::json;

namespace {

// nlohmann's parser is iterative but dump(), copies and comparisons recurse: documents deeper
// than this are left to byte mutation so the mutator itself never exhausts the stack.
constexpr int kMaxMutableDepth = 400;
constexpr int kMaxNestAdded = 300;

int nesting_depth(std::string_view text) {
  int depth = 0, max_depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      max_depth = std::max(max_depth, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return max_depth;
}

// Every node of a document, with the container holding it, for picking a random place.
struct Node {
  json* value;
  json* parent;          // nullptr for the root
  std::string key;       // member name when parent is an object
};

void collect(json& v, json* parent, const std::string& key, std::vector<Node>& out, int depth) {
  out.push_back({&v, parent, key});
  if (depth > kMaxMutableDepth) return;
  if (v.is_object())
    for (auto it = v.begin(); it != v.end(); ++it) collect(it.value(), &v, it.key(), out, depth + 1);
  else if (v.is_array())
    for (auto& e : v) collect(e, &v, "", out, depth + 1);
}

// Objects that look like JSON-RPC messages (they are where the MCP-specific games apply).
void collect_messages(json& v, std::vector<json*>& out, int depth) {
  if (depth > kMaxMutableDepth) return;
  if (v.is_object()) {
    if (v.contains("jsonrpc") || v.contains("method") || v.contains("id") || v.contains("result") ||
        v.contains("error"))
      out.push_back(&v);
    for (auto& [k, e] : v.items()) collect_messages(e, out, depth + 1);
  } else if (v.is_array()) {
    for (auto& e : v) collect_messages(e, out, depth + 1);
  }
}

}  // namespace

const char* mutation_name(Mutation m) {
  switch (m) {
    case Mutation::MethodSwap: return "method-swap";
    case Mutation::IdGame: return "id-game";
    case Mutation::BoundaryNumber: return "boundary-number";
    case Mutation::TypeSwap: return "type-swap";
    case Mutation::DeepNest: return "deep-nest";
    case Mutation::DropMember: return "drop-member";
    case Mutation::AddMember: return "add-member";
    case Mutation::JsonrpcGame: return "jsonrpc-game";
    case Mutation::ParamsGame: return "params-game";
    case Mutation::EnvelopeSwap: return "envelope-swap";
    case Mutation::BatchGame: return "batch-game";
    case Mutation::StringGame: return "string-game";
    case Mutation::SchemaGame: return "schema-game";
    case Mutation::RegexGame: return "regex-game";
    case Mutation::CopySubtree: return "copy-subtree";
    case Mutation::InvalidUtf8: return "invalid-utf8";
    case Mutation::DuplicateKey: return "duplicate-key";
    case Mutation::Truncate: return "truncate";
    case Mutation::FrameGame: return "frame-game";
    case Mutation::kCount: break;
  }
  return "?";
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> pieces;
  std::size_t start = 0;
  for (std::size_t nl; (nl = text.find('\n', start)) != std::string_view::npos; start = nl + 1)
    pieces.emplace_back(text.substr(start, nl - start));
  pieces.emplace_back(text.substr(start));
  return pieces;
}

bool is_json(std::string_view text) {
  // accept() reads the text without building a document: most texts asked about are not one JSON
  // value (a multi-line input as a whole), and building the document of their first value, all of
  // it allocations that ASan records, only to throw it away was most of the mutator's cost.
  return nesting_depth(text) <= kMaxMutableDepth && json::accept(text.begin(), text.end());
}

std::optional<json> parse_json(std::string_view text) {
  if (!is_json(text)) return std::nullopt;
  json v = json::parse(text.begin(), text.end(), nullptr, false);
  if (v.is_discarded()) return std::nullopt;
  return v;
}

json JsonMutator::random_value(int depth) {
  const auto& voc = vocabulary();
  switch (below(depth > 2 ? 6 : 8)) {
    case 0: return nullptr;
    case 1: return chance(2);
    case 2: return voc.boundary_numbers[below(voc.boundary_numbers.size())];
    case 3: return voc.odd_strings[below(voc.odd_strings.size())];
    case 4: return voc.methods.empty() ? json("ping") : json(voc.methods[below(voc.methods.size())]);
    case 5: return static_cast<std::int64_t>(below(1000)) - 10;
    case 6: {
      json a = json::array();
      for (std::size_t i = below(4); i > 0; --i) a.push_back(random_value(depth + 1));
      return a;
    }
    default: {
      json o = json::object();
      for (std::size_t i = below(4); i > 0; --i)
        o[voc.member_names[below(voc.member_names.size())]] = random_value(depth + 1);
      return o;
    }
  }
}

// A schema of one to three keywords, each with a value of the shape it takes (most of the time:
// one in eight gets a random value, for the schema compiler's error paths). Booleans are schemas
// too from draft 6 on.
json JsonMutator::random_schema(int depth) {
  if (chance(8)) return chance(2);
  json schema = json::object();
  for (std::size_t i = 1 + below(3); i > 0; --i) {
    SchemaKeyword keyword = random_schema_keyword();
    schema[keyword.name] = chance(8) ? random_value(depth + 1) : schema_keyword_value(keyword, depth);
  }
  return schema;
}

// A keyword with the shape of value it takes, read off the list it was picked from (a keyword in
// two lists, items or exclusiveMinimum, takes both shapes across the drafts); "other" (type,
// enum, pattern, $ref ...) twice as likely, being the widest group.
JsonMutator::SchemaKeyword JsonMutator::random_schema_keyword() {
  const auto& voc = vocabulary();
  static const std::pair<const std::vector<std::string> Vocabulary::*, SchemaShape> kLists[] = {
      {&Vocabulary::schema_subschema, SchemaShape::Subschema}, {&Vocabulary::schema_schema_list, SchemaShape::SchemaList},
      {&Vocabulary::schema_schema_map, SchemaShape::SchemaMap}, {&Vocabulary::schema_number, SchemaShape::Number},
      {&Vocabulary::schema_other, SchemaShape::Other},          {&Vocabulary::schema_other, SchemaShape::Other}};
  const auto& [member, shape] = kLists[below(std::size(kLists))];
  const auto& list = voc.*member;
  return {list[below(list.size())], shape};
}

json JsonMutator::schema_keyword_value(const SchemaKeyword& picked, int depth) {
  const auto& voc = vocabulary();
  const std::string& keyword = picked.name;
  // Nested schemas stop growing after three levels: deep ones are deep-nest's job.
  auto sub = [&] { return depth > 2 ? json(chance(2)) : random_schema(depth + 1); };
  if (picked.shape == SchemaShape::Subschema) return sub();
  if (picked.shape == SchemaShape::SchemaList) {
    json list = json::array();
    for (std::size_t i = below(4); i > 0; --i) list.push_back(sub());
    return list;
  }
  if (picked.shape == SchemaShape::SchemaMap) {
    json map = json::object();
    for (std::size_t i = 1 + below(2); i > 0; --i) {
      std::string name = keyword == "patternProperties" ? random_regex()
                         : chance(2)                    ? std::string("a")
                                                        : voc.member_names[below(voc.member_names.size())];
      // dependencies (draft 4-7) maps a name to a schema or to a list of names.
      map[name] = keyword == "dependencies" && chance(2) ? json::array({"a", "b"}) : sub();
    }
    return map;
  }
  if (picked.shape == SchemaShape::Number)
    return chance(2) ? json(static_cast<std::int64_t>(below(5))) : voc.boundary_numbers[below(voc.boundary_numbers.size())];
  if (keyword == "type") {
    static const char* kTypes[] = {"string", "integer", "number", "object", "array", "boolean", "null", "any"};
    if (chance(3)) return json::array({kTypes[below(std::size(kTypes))], kTypes[below(std::size(kTypes))]});
    return kTypes[below(std::size(kTypes))];
  }
  if (keyword == "enum") return json::array({random_value(depth + 1), random_value(depth + 1)});
  if (keyword == "required") return json::array({"a", voc.member_names[below(voc.member_names.size())]});
  if (keyword == "dependentRequired") return json{{"a", json::array({"b"})}};
  if (keyword == "pattern") return random_regex();
  if (keyword == "format") return voc.schema_formats[below(voc.schema_formats.size())];
  if (keyword == "uniqueItems" || keyword == "exclusiveMinimum") return chance(2);  // draft 4's boolean form
  if (keyword == "$ref" || keyword == "$dynamicRef") {
    static const char* kRefs[] = {"#", "#/definitions/a", "#/$defs/a", "#/properties/a", "#a", "other.json#",
                                  "#/items/0", "#/definitions/a/not", ""};
    return kRefs[below(std::size(kRefs))];
  }
  if (keyword == "$schema") {
    static const char* kDialects[] = {"http://json-schema.org/draft-04/schema#", "http://json-schema.org/draft-07/schema#",
                                      "https://json-schema.org/draft/2020-12/schema", "x"};
    return kDialects[below(std::size(kDialects))];
  }
  if (keyword == "$id" || keyword == "id" || keyword == "$anchor") return chance(2) ? json("a") : json("#a");
  return random_value(depth + 1);  // const, default, $comment, title
}

// One to six fragments of regex syntax, sometimes wrapped in a group and quantified.
std::string JsonMutator::random_regex() {
  const auto& voc = vocabulary();
  std::string pattern;
  for (std::size_t i = 1 + below(6); i > 0; --i) pattern += voc.regex_fragments[below(voc.regex_fragments.size())];
  if (chance(4)) pattern = "(" + pattern + ")" + (chance(2) ? "+" : "*");
  return pattern;
}

Mutation JsonMutator::pick_structural() {
  // Text-level kinds are chosen in mutate_text; the rest are equally likely.
  return static_cast<Mutation>(below(static_cast<std::size_t>(Mutation::CopySubtree) + 1));
}

void JsonMutator::mutate_value(json& root, Mutation m) {
  last_ = m;
  const auto& voc = vocabulary();
  std::vector<json*> messages;
  collect_messages(root, messages, 0);
  json* msg = messages.empty() ? nullptr : messages[below(messages.size())];
  std::vector<Node> nodes;
  collect(root, nullptr, "", nodes, 0);
  Node& node = nodes[below(nodes.size())];
  // A random node of one JSON type (is = &json::is_string ...), or nullptr when there is none.
  auto pick_of_type = [&](bool (json::*is)() const noexcept) -> json* {
    std::vector<json*> found;
    for (auto& n : nodes)
      if ((n.value->*is)()) found.push_back(n.value);
    return found.empty() ? nullptr : found[below(found.size())];
  };

  switch (m) {
    case Mutation::MethodSwap: {
      json method = voc.methods.empty() ? json("ping") : json(voc.methods[below(voc.methods.size())]);
      if (msg) (*msg)["method"] = std::move(method);
      else *node.value = std::move(method);
      return;
    }
    case Mutation::IdGame: {
      if (msg && chance(4)) {
        if (msg->contains("id")) msg->erase("id");
        else (*msg)["id"] = voc.odd_ids[below(voc.odd_ids.size())];
        return;
      }
      json& target = msg ? (*msg)["id"] : *node.value;
      if (target.is_number_integer() && chance(2)) target = target.dump();  // 1 -> "1"
      else if (target.is_string() && chance(2)) target = json::parse(target.get<std::string>(), nullptr, false).is_number()
                                                            ? json::parse(target.get<std::string>())
                                                            : json(voc.odd_ids[below(voc.odd_ids.size())]);
      else target = voc.odd_ids[below(voc.odd_ids.size())];
      return;
    }
    case Mutation::BoundaryNumber: {
      json* target = pick_of_type(&json::is_number);
      if (!target) target = node.value;
      *target = voc.boundary_numbers[below(voc.boundary_numbers.size())];
      return;
    }
    case Mutation::TypeSwap: {
      json replacement = random_value();
      for (int tries = 0; tries < 4 && replacement.type() == node.value->type(); ++tries) replacement = random_value();
      *node.value = std::move(replacement);
      return;
    }
    case Mutation::DeepNest: {
      int levels = 2 + static_cast<int>(below(kMaxNestAdded));
      json v = std::move(*node.value);
      bool objects = chance(2);
      for (int i = 0; i < levels; ++i) {
        if (objects) v = json{{"a", std::move(v)}};
        else v = json::array({std::move(v)});
      }
      *node.value = std::move(v);
      return;
    }
    case Mutation::DropMember: {
      std::vector<Node*> members;
      for (auto& n : nodes)
        if (n.parent && n.parent->is_object()) members.push_back(&n);
      if (members.empty()) { *node.value = json::object(); return; }
      Node* victim = members[below(members.size())];
      victim->parent->erase(victim->key);
      return;
    }
    case Mutation::AddMember: {
      json* target = pick_of_type(&json::is_object);
      if (!target) { *node.value = json::object(); target = node.value; }
      const auto& names = chance(3) ? voc.matcher_operators : voc.member_names;
      (*target)[names[below(names.size())]] = random_value();
      return;
    }
    case Mutation::JsonrpcGame: {
      json& target = msg ? *msg : *node.value;
      if (!target.is_object()) target = json::object();
      static const json kVersions[] = {"1.0", 2.0, "2.0 ", "2", "", nullptr, "2.0\n", json::array({"2.0"})};
      if (chance(4)) target.erase("jsonrpc");
      else target["jsonrpc"] = kVersions[below(std::size(kVersions))];
      return;
    }
    case Mutation::ParamsGame: {
      json& target = msg ? *msg : *node.value;
      if (!target.is_object()) target = json::object();
      const char* member = target.contains("result") ? "result" : "params";
      switch (below(6)) {
        case 0: target[member] = json::array({random_value()}); break;
        case 1: target[member] = nullptr; break;
        case 2: target[member] = voc.odd_strings[below(voc.odd_strings.size())]; break;
        case 3: target[member] = json::object(); break;
        case 4: target.erase(member); break;
        default:
          if (!target[member].is_object()) target[member] = json::object();
          target[member]["_meta"] = json{{"progressToken", voc.odd_ids[below(voc.odd_ids.size())]}};
      }
      return;
    }
    case Mutation::EnvelopeSwap: {
      json& target = msg ? *msg : *node.value;
      if (!target.is_object()) target = json{{"jsonrpc", "2.0"}};
      switch (below(4)) {
        case 0:  // request -> response
          target.erase("method");
          target.erase("params");
          target["result"] = json::object();
          break;
        case 1:  // response -> request
          target.erase("result");
          target.erase("error");
          target["method"] = voc.methods.empty() ? json("ping") : json(voc.methods[below(voc.methods.size())]);
          break;
        case 2:  // result and error together
          target["result"] = json::object();
          target["error"] = json{{"code", -32603}, {"message", "x"}};
          break;
        default:  // a malformed error object
          target["error"] = random_value();
      }
      return;
    }
    case Mutation::BatchGame: {
      if (root.is_array() && !root.empty() && chance(2)) {
        json first = root[below(root.size())];
        root = std::move(first);
      } else if (chance(6)) {
        root = json::array();
      } else {
        json batch = json::array({root});
        if (chance(2)) batch.push_back(root);
        root = std::move(batch);
      }
      return;
    }
    case Mutation::StringGame: {
      json* target = pick_of_type(&json::is_string);
      *(target ? target : node.value) = voc.odd_strings[below(voc.odd_strings.size())];
      return;
    }
    case Mutation::SchemaGame: {
      json* target = pick_of_type(&json::is_object);
      if (!target || chance(2)) {
        *node.value = random_schema();
        return;
      }
      SchemaKeyword keyword = random_schema_keyword();
      (*target)[keyword.name] = schema_keyword_value(keyword, 0);
      return;
    }
    case Mutation::RegexGame: {
      json* target = pick_of_type(&json::is_string);
      if (!target || chance(3)) {
        *(target ? target : node.value) = random_regex();
        return;
      }
      // A fragment spliced into an existing string keeps most of a pattern that already works.
      std::string text = target->get<std::string>();
      std::string piece = chance(2) ? voc.regex_fragments[below(voc.regex_fragments.size())] : random_regex();
      std::size_t at = below(text.size() + 1);
      if (chance(3) && at < text.size()) text.erase(at, 1 + below(std::min<std::size_t>(4, text.size() - at)));
      text.insert(std::min(at, text.size()), piece);
      *target = std::move(text);
      return;
    }
    case Mutation::CopySubtree: {
      const Node& from = nodes[below(nodes.size())];
      if (from.value == node.value) return;
      json copy = *from.value;  // copied first: the assignment below may free `from`
      *node.value = std::move(copy);
      return;
    }
    default:
      return;
  }
}

std::string JsonMutator::mutate_text(std::string text, std::size_t max_size) {
  switch (below(8)) {
    case 0: {  // invalid UTF-8 inside a string literal (or anywhere when there is none)
      last_ = Mutation::InvalidUtf8;
      static const std::string kBad[] = {"\xff", "\xc3\x28", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                                         "\xe2\x82", "\x80", "\\ud800", "\\udc00x", "\\u00"};
      std::size_t quote = text.find('"', below(text.size() + 1));
      std::size_t at = quote == std::string::npos ? below(text.size() + 1) : quote + 1;
      text.insert(at, kBad[below(std::size(kBad))]);
      break;
    }
    case 1: {  // a member written twice: {"id":1,"id":"1",...}
      last_ = Mutation::DuplicateKey;
      std::size_t brace = text.find('{', below(text.size() + 1));
      if (brace == std::string::npos) brace = text.find('{');
      if (brace != std::string::npos) {
        const auto& voc = vocabulary();
        std::string member = "\"" + voc.member_names[below(voc.member_names.size())] + "\":" + random_value().dump() +
                             (text.size() > brace + 1 && text[brace + 1] == '}' ? "" : ",");
        text.insert(brace + 1, member + member);
      }
      break;
    }
    case 2:  // cut short, keeping a byte at least: a frame cut to nothing would be no frame at all,
             // and a last frame emptied made "a\nb" into "a\n", a stream that now ends with a newline
      last_ = Mutation::Truncate;
      if (!text.empty()) text.resize(1 + below(text.size()));
      break;
    default:
      break;  // most mutations stay valid JSON
  }
  if (text.size() > max_size) text.resize(max_size);
  return text;
}

std::optional<std::string> JsonMutator::mutate(std::string_view input, std::size_t max_size) {
  if (auto whole = parse_json(input)) {
    mutate_value(*whole, pick_structural());
    // error_handler replace: the vocabulary's invalid strings are written, not thrown on.
    std::string out = whole->dump(-1, ' ', false, json::error_handler_t::replace);
    if (out.size() > max_size) return std::nullopt;
    return mutate_text(std::move(out), max_size);
  }
  return mutate_lines(input, max_size);
}

std::optional<std::string> JsonMutator::mutate_lines(std::string_view input, std::size_t max_size) {
  std::vector<std::string> lines = split_lines(input);
  // A final newline ends the last frame; it does not start an empty one.
  bool trailing_newline = !input.empty() && input.back() == '\n';
  if (lines.back().empty()) lines.pop_back();
  std::vector<std::size_t> json_lines;
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (is_json(lines[i])) json_lines.push_back(i);
  if (json_lines.empty()) return std::nullopt;

  if (lines.size() > 1 && chance(4)) {
    last_ = Mutation::FrameGame;
    std::size_t a = below(lines.size()), b = below(lines.size());
    switch (below(7)) {
      case 0: lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(a), lines[a]); break;
      case 1: lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(a)); break;
      case 2: std::swap(lines[a], lines[b]); break;
      case 3:  // two frames run together on one line
        if (a + 1 < lines.size()) {
          lines[a] += lines[a + 1];
          lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(a) + 1);
        }
        break;
      case 4: {  // one frame split over two lines
        std::size_t cut = below(lines[a].size() + 1);
        std::string tail = lines[a].substr(cut);
        lines[a].resize(cut);
        lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(a) + 1, tail);
        break;
      }
      case 5: lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(a), ""); break;
      default: lines[a] += "\r"; break;
    }
  } else {
    std::size_t i = json_lines[below(json_lines.size())];
    auto v = parse_json(lines[i]);
    mutate_value(*v, pick_structural());
    lines[i] = mutate_text(v->dump(-1, ' ', false, json::error_handler_t::replace), max_size);
    // A frame must stay one line: a newline from the text games would split it.
    for (auto& c : lines[i])
      if (c == '\n') c = ' ';
  }
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    out += lines[i];
    if (i + 1 < lines.size() || trailing_newline) out += '\n';
  }
  if (out.size() > max_size) return std::nullopt;
  return out;
}

std::optional<std::string> JsonMutator::cross_over(std::string_view input, std::string_view other,
                                                   std::size_t max_size) {
  auto a = parse_json(input);
  auto b = parse_json(other);
  if (!a || !b) return std::nullopt;
  std::vector<Node> to, from;
  collect(*a, nullptr, "", to, 0);
  collect(*b, nullptr, "", from, 0);
  *to[below(to.size())].value = *from[below(from.size())].value;
  std::string out = a->dump(-1, ' ', false, json::error_handler_t::replace);
  if (out.size() > max_size) return std::nullopt;
  return out;
}

}  // namespace mcpspec::fuzz
