#include "tui_layout.hpp"

#include <algorithm>

namespace spectui {

Layout compute_layout(int lines, int cols) {
  Layout l;
  if (lines < kMinLines || cols < kMinCols) {
    l.too_small = true;
    return l;
  }
  // Fixed rows at the bottom: input, progress, status, help; the title on top; the rest is
  // split between the command menu (left) and the output panel (right).
  int body = lines - 1 - 4;
  int menu_width = std::clamp(cols / 3, 22, 30);
  l.title = {0, 0, 1, cols};
  l.menu = {1, 0, body, menu_width};
  l.output = {1, menu_width, body, cols - menu_width};
  l.input = {lines - 4, 0, 1, cols};
  l.progress = {lines - 3, 0, 1, cols};
  l.status = {lines - 2, 0, 1, cols};
  l.help = {lines - 1, 0, 1, cols};
  return l;
}

}  // namespace spectui
