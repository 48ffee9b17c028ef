#pragma once
// Parses JSON text and compares it, event by event, with a value already in memory, without
// building a second document: a SAX handler for nlohmann::json::sax_parse.
//
// Why: message_parser_fuzz checks that every message serializes and parses back to the same value.
// Parsing the text into a second DOM and comparing with == allocated every node again, and under
// ASan each allocation records a stack trace; that bookkeeping was the largest single cost of the
// target. Walking the original value while the parser reads the text checks the same thing with
// no allocation but the level stack (kept between calls).
//
// The comparison is stricter than ==: an integer must come back an integer and a float a float,
// as well as with the same value, where == holds 1 and 1.0 equal (signed and unsigned integers of
// one value stay equal: "-0" is read as a signed 0 and written "0"). So whatever reads only the
// value, whether a number is an integer and the JSON types (protocol::classify, for one) answers
// the same for the re-parsed text as for the original.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace mcpspec::fuzz {

class SameValueSax {
 public:
  using json = nlohmann::json;

  // True when `text` is exactly one JSON value equal to `expected`, types of numbers included.
  bool same(const std::string& text, const json& expected) {
    expected_ = &expected;
    root_taken_ = false;
    ok_ = true;
    levels_.clear();
    const bool parsed = json::sax_parse(text, this);
    return parsed && ok_ && root_taken_ && levels_.empty();
  }

  // nlohmann's SAX interface: each returns false to stop the parse at the first difference.
  bool null() { const json* v = take(); return check(v != nullptr && v->is_null()); }
  bool boolean(bool b) { const json* v = take(); return check(v != nullptr && v->is_boolean() && v->get<bool>() == b); }
  // An integer must come back an integer of the same value; signed or unsigned may differ, since
  // nlohmann reads "-0" as a signed 0 and writes it as "0", read back unsigned: the same number.
  bool number_integer(json::number_integer_t n) {
    const json* v = take();
    return check(v != nullptr && v->is_number_integer() &&
                 (v->is_number_unsigned() ? n >= 0 && v->get<json::number_unsigned_t>() ==
                                                          static_cast<json::number_unsigned_t>(n)
                                          : v->get<json::number_integer_t>() == n));
  }
  bool number_unsigned(json::number_unsigned_t n) {
    const json* v = take();
    return check(v != nullptr && v->is_number_integer() &&
                 (v->is_number_unsigned() ? v->get<json::number_unsigned_t>() == n
                                          : v->get<json::number_integer_t>() >= 0 &&
                                                static_cast<json::number_unsigned_t>(v->get<json::number_integer_t>()) == n));
  }
  bool number_float(json::number_float_t d, const std::string&) {
    const json* v = take();
    return check(v != nullptr && v->is_number_float() && v->get<json::number_float_t>() == d);
  }
  bool string(std::string& s) {
    const json* v = take();
    return check(v != nullptr && v->is_string() && v->get_ref<const std::string&>() == s);
  }
  bool binary(json::binary_t&) { return check(false); }  // JSON text has no binary values
  bool start_object(std::size_t) { return open(json::value_t::object); }
  bool key(std::string& k) {
    if (levels_.empty()) return check(false);
    Level& l = levels_.back();
    if (!l.node->is_object() || l.keyed || l.it == l.end || l.it.key() != k) return check(false);
    l.keyed = true;
    return true;
  }
  bool end_object() { return close(json::value_t::object); }
  bool start_array(std::size_t) { return open(json::value_t::array); }
  bool end_array() { return close(json::value_t::array); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return check(false); }

 private:
  struct Level {
    const json* node;
    json::const_iterator it, end;
    bool keyed = false;  // an object's key was read and matched: its value comes next
  };

  bool check(bool good) {
    if (!good) ok_ = false;
    return good;
  }
  // The value the next event must match, or null when there is none (past the end of an array or
  // object, a value where a key was due, a second top-level value).
  const json* take() {
    if (levels_.empty()) {
      if (root_taken_) return nullptr;
      root_taken_ = true;
      return expected_;
    }
    Level& l = levels_.back();
    if (l.it == l.end) return nullptr;
    if (l.node->is_object()) {
      if (!l.keyed) return nullptr;
      l.keyed = false;
    }
    const json* v = &*l.it;  // for an object, the member's value
    ++l.it;
    return v;
  }
  bool open(json::value_t type) {
    const json* v = take();
    if (v == nullptr || v->type() != type) return check(false);
    levels_.push_back({v, v->cbegin(), v->cend()});
    return true;
  }
  bool close(json::value_t type) {
    if (levels_.empty()) return check(false);
    const Level& l = levels_.back();
    if (l.node->type() != type || l.it != l.end || l.keyed) return check(false);
    levels_.pop_back();
    return true;
  }

  const json* expected_ = nullptr;
  bool root_taken_ = false;
  bool ok_ = true;
  std::vector<Level> levels_;
};

}  // namespace mcpspec::fuzz
