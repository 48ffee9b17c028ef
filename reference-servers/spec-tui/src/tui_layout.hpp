// Where each part of the screen goes for a given terminal size. Pure arithmetic, so the layout
// after a resize is testable without a terminal.
#pragma once

namespace spectui {

struct Rect {
  int top = 0, left = 0, height = 0, width = 0;
};

struct Layout {
  bool too_small = false;  // below kMinLines x kMinCols only a notice is drawn
  Rect title, menu, output, input, progress, status, help;
};

inline constexpr int kMinLines = 12;
inline constexpr int kMinCols = 50;

Layout compute_layout(int lines, int cols);

}  // namespace spectui
