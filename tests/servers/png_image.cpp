#include "png_image.hpp"

#include <array>
#include <cstdint>

namespace testserver {

namespace {

std::uint32_t crc32(std::string_view data) {
  static const auto table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t n = 0; n < 256; ++n) {
      std::uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  std::uint32_t c = 0xffffffffu;
  for (unsigned char b : data) c = table[(c ^ b) & 0xff] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

std::uint32_t adler32(std::string_view data) {
  std::uint32_t a = 1, b = 0;
  for (unsigned char c : data) {
    a = (a + c) % 65521;
    b = (b + a) % 65521;
  }
  return (b << 16) | a;
}

void put_be32(std::string& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
}

void put_chunk(std::string& out, std::string_view type, std::string_view data) {
  put_be32(out, static_cast<std::uint32_t>(data.size()));
  std::string body(type);
  body.append(data);
  out.append(body);
  put_be32(out, crc32(body));
}

std::string build_png() {
  constexpr int kSide = 8;
  std::string raw;  // filter byte 0 (none) + RGB per pixel, per row
  for (int y = 0; y < kSide; ++y) {
    raw.push_back('\0');
    for (int x = 0; x < kSide; ++x) {
      const bool dark = ((x / 2) + (y / 2)) % 2 == 0;
      raw.push_back(static_cast<char>(dark ? 0x20 : 0xe0));
      raw.push_back(static_cast<char>(dark ? 0x40 : 0xc0));
      raw.push_back(static_cast<char>(dark ? 0x90 : 0xf0));
    }
  }
  // zlib stream holding one stored (uncompressed) deflate block: no compressor needed.
  std::string z = {'\x78', '\x01', '\x01'};
  const auto len = static_cast<std::uint16_t>(raw.size());
  z.push_back(static_cast<char>(len & 0xff));
  z.push_back(static_cast<char>(len >> 8));
  z.push_back(static_cast<char>(~len & 0xff));
  z.push_back(static_cast<char>((~len >> 8) & 0xff));
  z.append(raw);
  put_be32(z, adler32(raw));

  std::string ihdr;
  put_be32(ihdr, kSide);
  put_be32(ihdr, kSide);
  ihdr.append({'\x08', '\x02', '\x00', '\x00', '\x00'});  // 8-bit RGB, deflate, no interlace

  std::string png = "\x89PNG\r\n\x1a\n";
  put_chunk(png, "IHDR", ihdr);
  put_chunk(png, "IDAT", z);
  put_chunk(png, "IEND", "");
  return png;
}

}  // namespace

std::string base64_encode(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const std::uint32_t n = (static_cast<unsigned char>(bytes[i]) << 16) |
                            (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                            static_cast<unsigned char>(bytes[i + 2]);
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
    out.push_back(kAlphabet[(n >> 6) & 63]);
    out.push_back(kAlphabet[n & 63]);
  }
  if (const std::size_t rest = bytes.size() - i; rest > 0) {
    std::uint32_t n = static_cast<unsigned char>(bytes[i]) << 16;
    if (rest == 2) n |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
    out.push_back(rest == 2 ? kAlphabet[(n >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

const std::string& sample_png_base64() {
  static const std::string encoded = base64_encode(build_png());
  return encoded;
}

}  // namespace testserver
