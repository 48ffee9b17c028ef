// The round-trip comparison of message_parser_fuzz (fuzz/support/same_value_sax.hpp): it must say
// "same" for every value that parses back unchanged and "different" for every way a text can
// differ from the value, or the fuzz target's round-trip invariant could never fail.
#include "fuzz/support/same_value_sax.hpp"

#include <catch2/catch.hpp>

#include <string>

using nlohmann::json;
using mcpspec::fuzz::SameValueSax;

TEST_CASE("same_value_sax: a value's own serialization is the same value", "[fuzz]") {
  SameValueSax cmp;
  for (const char* text : {R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}})",
                           R"([1,-2,3.5,"s",null,true,false,[],{},[[{"a":[{}]}]]])", "0", "-0", "1e300", "\"\\u00e9\\n\"",
                           R"({"b":1,"a":2,"c":{"z":[],"y":{}}})", "18446744073709551615", "-9223372036854775808"}) {
    json value = json::parse(text);
    INFO(text);
    CHECK(cmp.same(value.dump(), value));
  }
}

TEST_CASE("same_value_sax: every kind of difference is found", "[fuzz]") {
  SameValueSax cmp;
  const json value = json::parse(R"({"a":[1,2,{"b":"x"}],"c":null,"d":1.5,"e":true})");
  REQUIRE(cmp.same(value.dump(), value));
  for (const char* other : {
           R"({"a":[1,2,{"b":"y"}],"c":null,"d":1.5,"e":true})",     // another string
           R"({"a":[1,3,{"b":"x"}],"c":null,"d":1.5,"e":true})",     // another integer
           R"({"a":[1,2.0,{"b":"x"}],"c":null,"d":1.5,"e":true})",   // an integer turned float (== holds)
           R"({"a":[1,2,{"b":"x"}],"c":null,"d":1,"e":true})",       // ... and back
           R"({"a":[1,2,{"b":"x"}],"c":null,"d":1.5,"e":false})",    // another boolean
           R"({"a":[1,2,{"b":"x"}],"c":0,"d":1.5,"e":true})",        // null turned number
           R"({"a":[1,2,{"b":"x"},3],"c":null,"d":1.5,"e":true})",   // an array item more
           R"({"a":[1,2],"c":null,"d":1.5,"e":true})",               // one fewer
           R"({"a":[1,2,{"b":"x"}],"c":null,"d":1.5})",              // a member fewer
           R"({"a":[1,2,{"b":"x"}],"c":null,"d":1.5,"e":true,"f":1})",  // a member more
           R"({"a":[1,2,{"B":"x"}],"c":null,"d":1.5,"e":true})",     // another key
           R"({"a":{"0":1},"c":null,"d":1.5,"e":true})",             // an array turned object
           R"({"a":[1,2,{"b":"x"}],"c":null,"d":1.5,"e":true} 1)",   // a second value
           R"({"a":[1,2,{"b":"x"}],"c":null,"d":1.5,"e":true)",      // cut short
           R"([])",                                                  // another type at the top
       }) {
    INFO(other);
    CHECK_FALSE(cmp.same(other, value));
  }
  CHECK(cmp.same(value.dump(), value));  // a failed comparison leaves nothing behind
}

TEST_CASE("same_value_sax: a signed and an unsigned integer of one value are the same number", "[fuzz]") {
  // nlohmann reads "-0" as a signed 0 and writes "0", which reads back unsigned; classify() treats
  // both as an integer, as == does.
  SameValueSax cmp;
  const json minus_zero = json::parse("-0");
  REQUIRE(minus_zero.is_number_integer());
  REQUIRE_FALSE(minus_zero.is_number_unsigned());
  CHECK(cmp.same(minus_zero.dump(), minus_zero));
  CHECK(cmp.same("0", json(0u)));
  CHECK_FALSE(cmp.same("1", json(-1)));
  CHECK_FALSE(cmp.same("-1", json(18446744073709551615u)));
}
