// A small valid PNG built at run time (no image files in the tree), and base64.
#pragma once

#include <string>
#include <string_view>

namespace testserver {

std::string base64_encode(std::string_view bytes);

// An 8x8 RGB checkerboard, encoded as PNG then base64.
const std::string& sample_png_base64();

}  // namespace testserver
