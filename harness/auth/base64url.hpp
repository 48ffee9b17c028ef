#pragma once
// BASE64URL without padding (RFC 4648 §5, as JOSE and PKCE use it), over OpenSSL's base64 codec:
// the alphabet is translated and padding dropped or restored around EVP_EncodeBlock/EVP_DecodeBlock.
#include <optional>
#include <string>
#include <string_view>

namespace mcpspec::auth {

std::string base64url_encode(std::string_view bytes);
// Null when the text is not unpadded base64url (a character outside the alphabet, '=' padding, a
// length that no byte string encodes to).
std::optional<std::string> base64url_decode(std::string_view text);

}  // namespace mcpspec::auth
