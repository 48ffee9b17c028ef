#pragma once
// String formats: what the matcher's $base64, $uri and $len understand, and what the monitors
// check where a rule asks for a URI (an elicitation's url, ELI-07).
#include <cstddef>
#include <string>
#include <string_view>

namespace mcpspec::util {

// Why `s` is not standard base64 (RFC 4648 section 4: alphabet A-Z a-z 0-9 + /, '=' padding to
// a multiple of 4, no whitespace or line breaks); "" when it is. The empty string is valid
// (it encodes zero bytes). Non-zero bits in the last character before padding are accepted,
// as most decoders do.
std::string base64_problem(std::string_view s);

// Why `s` is not a URI; "" when it is. Checked (RFC 3986, without the full grammar):
//  - a scheme: a letter, then letters, digits, '+', '-' or '.', then ':';
//  - every other character is unreserved, reserved (gen-delims / sub-delims) or a
//    percent-escape "%" HEXDIG HEXDIG, so spaces, control characters, non-ASCII bytes and
//    the characters " < > \ ^ ` { | } are rejected;
//  - at most one '#'.
// Authority, port and IP-literal syntax are not checked.
std::string uri_problem(std::string_view s);

// Length in Unicode code points (what $len counts for strings). Bytes of malformed UTF-8 count
// as one code point each, so every input has a length.
std::size_t code_point_count(std::string_view s);

}  // namespace mcpspec::util
