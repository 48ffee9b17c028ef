#include "harness/scenario/matcher_values.hpp"
#include "harness/util/json_pointer.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <utility>

namespace mcpspec::scenario::detail {

using nlohmann::json;

namespace {

// long double holds every int64 and uint64 exactly on x86-64, so mixed comparisons lose nothing
// there; elsewhere they are as good as the platform's long double.
long double as_long_double(const json& v) {
  if (v.is_number_unsigned()) return static_cast<long double>(v.get<std::uint64_t>());
  if (v.is_number_integer()) return static_cast<long double>(v.get<std::int64_t>());
  return static_cast<long double>(v.get<double>());
}

std::partial_ordering order_of(bool less, bool greater) {
  if (less) return std::partial_ordering::less;
  if (greater) return std::partial_ordering::greater;
  return std::partial_ordering::equivalent;
}

bool equal_at(const json& a, const json& b, int depth) {
  if (depth > kMaxValueDepth) return false;
  if (a.is_number() && b.is_number()) return compare_numbers(a, b) == std::partial_ordering::equivalent;
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case json::value_t::object: {
      if (a.size() != b.size()) return false;
      for (auto it = a.begin(); it != a.end(); ++it) {
        auto other = b.find(it.key());
        if (other == b.end() || !equal_at(it.value(), *other, depth + 1)) return false;
      }
      return true;
    }
    case json::value_t::array: {
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i)
        if (!equal_at(a[i], b[i], depth + 1)) return false;
      return true;
    }
    default:
      return a == b;
  }
}

// Strings are escaped the way dump() does, but invalid UTF-8 (possible in values built in code)
// is replaced instead of throwing.
std::string as_json_text(const std::string& s) {
  return json(s).dump(-1, ' ', false, json::error_handler_t::replace);
}

class BoundedWriter {
 public:
  explicit BoundedWriter(std::size_t limit) : limit_(limit) {}

  void write(const json& v, int depth) {
    if (full()) return;
    if (depth > kMaxValueDepth) {
      out_ += "...";
      return;
    }
    switch (v.type()) {
      case json::value_t::object: {
        out_ += '{';
        bool first = true;
        for (auto it = v.begin(); it != v.end() && !full(); ++it) {
          if (!first) out_ += ',';
          first = false;
          out_ += as_json_text(clip(it.key()));
          out_ += ':';
          write(it.value(), depth + 1);
        }
        out_ += '}';
        return;
      }
      case json::value_t::array: {
        out_ += '[';
        for (std::size_t i = 0; i < v.size() && !full(); ++i) {
          if (i) out_ += ',';
          write(v[i], depth + 1);
        }
        out_ += ']';
        return;
      }
      case json::value_t::string:
        out_ += as_json_text(clip(v.get_ref<const std::string&>()));
        return;
      case json::value_t::binary:
        out_ += "<binary>";
        return;
      case json::value_t::discarded:
        out_ += "<discarded>";
        return;
      default:
        out_ += v.dump();
        return;
    }
  }

  std::string finish() {
    if (out_.size() > limit_) {
      out_.resize(limit_);
      out_ += "...";
    }
    return std::move(out_);
  }

 private:
  bool full() const { return out_.size() > limit_; }
  // Only the part of a long string that can still be printed is escaped.
  std::string clip(const std::string& s) const {
    std::size_t room = limit_ + 1 > out_.size() ? limit_ + 1 - out_.size() : 1;
    return s.size() > room ? s.substr(0, room) : s;
  }

  std::size_t limit_;
  std::string out_;
};

void canonical_into(const json& v, std::string& out, int depth) {
  if (depth > kMaxValueDepth) throw std::length_error("value nested deeper than 256 levels");
  switch (v.type()) {
    case json::value_t::object:
      // nlohmann's object keeps keys sorted, so iteration order is already canonical.
      out += '{';
      for (auto it = v.begin(); it != v.end(); ++it) {
        out += as_json_text(it.key());
        out += ':';
        canonical_into(it.value(), out, depth + 1);
        out += ',';
      }
      out += '}';
      return;
    case json::value_t::array:
      out += '[';
      for (const auto& e : v) {
        canonical_into(e, out, depth + 1);
        out += ',';
      }
      out += ']';
      return;
    case json::value_t::number_integer:
      out += std::to_string(v.get<std::int64_t>());
      return;
    case json::value_t::number_unsigned:
      out += std::to_string(v.get<std::uint64_t>());
      return;
    case json::value_t::number_float: {
      // Integral floats must print like the integer they equal (1.0 and 1 are one value).
      double d = v.get<double>();
      if (std::isfinite(d) && std::trunc(d) == d) {
        if (d >= -9223372036854775808.0 && d < 9223372036854775808.0) {
          out += std::to_string(static_cast<std::int64_t>(d));
          return;
        }
        if (d >= 0 && d < 18446744073709551616.0) {
          out += std::to_string(static_cast<std::uint64_t>(d));
          return;
        }
      }
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.17g", d);
      out += buf;
      return;
    }
    case json::value_t::string:
      out += as_json_text(v.get_ref<const std::string&>());
      return;
    default:
      out += v.dump();
      return;
  }
}

}  // namespace

std::partial_ordering compare_numbers(const json& a, const json& b) {
  if (!a.is_number() || !b.is_number()) return std::partial_ordering::unordered;
  if (a.is_number_integer() && b.is_number_integer()) {
    // std::cmp_* compare signed and unsigned values exactly.
    if (a.is_number_unsigned() && b.is_number_unsigned()) {
      auto x = a.get<std::uint64_t>(), y = b.get<std::uint64_t>();
      return order_of(x < y, x > y);
    }
    if (a.is_number_unsigned()) {
      auto x = a.get<std::uint64_t>();
      auto y = b.get<std::int64_t>();
      return order_of(std::cmp_less(x, y), std::cmp_greater(x, y));
    }
    if (b.is_number_unsigned()) {
      auto x = a.get<std::int64_t>();
      auto y = b.get<std::uint64_t>();
      return order_of(std::cmp_less(x, y), std::cmp_greater(x, y));
    }
    auto x = a.get<std::int64_t>(), y = b.get<std::int64_t>();
    return order_of(x < y, x > y);
  }
  long double x = as_long_double(a), y = as_long_double(b);
  return x <=> y;
}

bool json_equal(const json& a, const json& b) { return equal_at(a, b, 0); }

std::string show(const json& v, std::size_t limit) {
  BoundedWriter w(limit);
  w.write(v, 0);
  return w.finish();
}

std::string escape_pointer_token(const std::string& token) { return pointer_token(token); }

std::string pointer_label(const std::string& pointer) { return pointer.empty() ? "(root)" : pointer; }

std::string canonical_key(const json& v) {
  std::string out;
  canonical_into(v, out, 0);
  return out;
}

const char* json_type_name(const json& v) {
  switch (v.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::object:
      return "object";
    case json::value_t::array:
      return "array";
    case json::value_t::string:
      return "string";
    case json::value_t::boolean:
      return "boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return "integer";
    case json::value_t::number_float:
      return "number";
    default:
      return "binary";
  }
}

}  // namespace mcpspec::scenario::detail
