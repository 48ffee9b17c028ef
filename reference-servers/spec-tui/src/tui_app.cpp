#include "tui_app.hpp"

#include "batch_mode.hpp"
#include "tui_layout.hpp"

#include <ncurses.h>

#include <fmt/format.h>

#include <optional>
#include <thread>
#include <vector>

namespace spectui {

namespace {

enum class Focus { Menu, Input };

struct UiState {
  int selected = 0;
  Focus focus = Focus::Menu;
  std::string input;
  std::string status = "Connecting to the agent...";
  bool status_is_error = false;
  std::optional<int> last_command;
  std::string last_input;
  bool last_failed = false;
};

// Writes `text` at (y, x), cut or padded to exactly `width` columns.
void put(int y, int x, int width, const std::string& text) {
  if (width <= 0) return;
  std::string t = text.substr(0, static_cast<std::size_t>(width));
  t.resize(static_cast<std::size_t>(width), ' ');
  mvaddnstr(y, x, t.c_str(), width);
}

void draw(WorkflowRunner& runner, const UiState& ui) {
  erase();
  Layout l = compute_layout(LINES, COLS);
  if (l.too_small) {
    put(0, 0, COLS, fmt::format("Terminal too small: need {}x{}", kMinCols, kMinLines));
    refresh();
    return;
  }
  std::string server = runner.server_description();
  attron(A_REVERSE);
  put(l.title.top, 0, l.title.width, " spec-tui  " + (server.empty() ? std::string("(not connected)") : server));
  attroff(A_REVERSE);

  const auto& commands = workflow_commands();
  put(l.menu.top, 1, l.menu.width - 2, "Commands");
  for (int i = 0; i < static_cast<int>(commands.size()) && i + 2 < l.menu.height; ++i) {
    bool sel = i == ui.selected;
    if (sel) attron(A_REVERSE);
    put(l.menu.top + 1 + i, 1, l.menu.width - 2, std::string(sel ? "> " : "  ") + commands[static_cast<std::size_t>(i)].name);
    if (sel) attroff(A_REVERSE);
  }
  const auto& chosen = commands[static_cast<std::size_t>(ui.selected)];
  int about = l.menu.top + 2 + static_cast<int>(commands.size());
  if (about < l.menu.top + l.menu.height) put(about, 1, l.menu.width - 2, chosen.summary);
  // A plain '|': line-drawing characters depend on the terminal's character set.
  mvvline(l.menu.top, l.menu.width - 1, '|', l.menu.height);

  put(l.output.top, l.output.left + 1, l.output.width - 1, "Output (log: " + runner.log().file().string() + ")");
  // Long lines (results, errors) wrap, so nothing is cut off; the newest rows stay visible.
  int rows = std::max(l.output.height - 1, 0);
  std::size_t width = static_cast<std::size_t>(std::max(l.output.width - 2, 1));
  std::vector<std::string> wrapped;
  for (const auto& line : runner.log().tail(static_cast<std::size_t>(rows))) {
    std::size_t at = 0;
    do {
      wrapped.push_back(line.substr(at, width));
      at += width;
    } while (at < line.size());
  }
  std::size_t first = wrapped.size() > static_cast<std::size_t>(rows) ? wrapped.size() - static_cast<std::size_t>(rows) : 0;
  for (std::size_t i = first; i < wrapped.size(); ++i)
    put(l.output.top + 1 + static_cast<int>(i - first), l.output.left + 1, l.output.width - 1, wrapped[i]);

  std::string label = chosen.input_label[0] ? chosen.input_label : "(no input: Enter runs)";
  std::string field = label + ": " + ui.input;
  if (ui.focus == Focus::Input) attron(A_BOLD);
  put(l.input.top, 0, l.input.width, field + (ui.focus == Focus::Input ? "_" : ""));
  if (ui.focus == Focus::Input) attroff(A_BOLD);

  ProgressModel p = runner.progress();
  if (p.active()) {
    int bar_width = std::min(40, l.progress.width / 2);
    put(l.progress.top, 0, l.progress.width, "Progress " + p.bar(bar_width) + " " + p.message());
  } else {
    put(l.progress.top, 0, l.progress.width, runner.busy() ? "Progress (waiting for the agent)" : "");
  }
  if (ui.status_is_error) attron(A_BOLD);
  put(l.status.top, 0, l.status.width, ui.status);
  if (ui.status_is_error) attroff(A_BOLD);
  put(l.help.top, 0, l.help.width,
      runner.busy() ? "c/Esc: cancel   q: cancel and quit"
                    : "Up/Down: choose  Enter: run  Esc: back  r: retry  q: quit");
  refresh();
}

}  // namespace

int run_tui(WorkflowRunner& runner) {
  initscr();
  raw();
  noecho();
  keypad(stdscr, TRUE);
  set_escdelay(25);
  curs_set(0);
  timeout(100);  // redraw at least 10 times a second: progress arrives on another thread

  UiState ui;
  std::thread worker;
  std::optional<RunOutcome> finished;
  std::mutex finished_mutex;
  auto start = [&](std::function<RunOutcome()> job) {
    if (worker.joinable()) worker.join();
    worker = std::thread([&, job] {
      RunOutcome out = job();
      std::lock_guard lock(finished_mutex);
      finished = out;
    });
  };
  auto run_selected = [&] {
    const auto& cmd = workflow_commands()[static_cast<std::size_t>(ui.selected)];
    ui.last_command = ui.selected;
    ui.last_input = ui.input;
    ui.status = fmt::format("Running {}...", cmd.name);
    ui.status_is_error = false;
    std::string input = ui.input;
    start([&runner, cmd, input] { return runner.run(cmd, input); });
  };
  bool connecting = true;
  start([&runner] { return runner.connect(); });

  bool quit = false, quit_when_idle = false;
  while (!quit) {
    {
      std::lock_guard lock(finished_mutex);
      if (finished) {
        ui.status = connecting && finished->ok ? "Connected. Choose a command." : finished->message;
        if (!finished->ok && finished->recoverable) ui.status += "  (press r to retry)";
        ui.status_is_error = !finished->ok;
        ui.last_failed = !finished->ok && !connecting;
        if (finished->ok && !connecting) ui.input.clear();
        connecting = false;
        finished.reset();
        ui.focus = Focus::Menu;
      }
    }
    bool busy = runner.busy() || connecting;
    if (quit_when_idle && !busy) break;
    draw(runner, ui);
    int key = getch();
    if (key == ERR) continue;
    if (key == KEY_RESIZE) {
      clear();
      continue;
    }
    if (busy) {
      if (key == 'c' || key == 27 || key == 3) {
        if (runner.cancel()) ui.status = "Cancelling...";
      } else if (key == 'q') {
        runner.cancel();
        quit_when_idle = true;
        ui.status = "Cancelling, then quitting...";
      }
      continue;
    }
    if (ui.focus == Focus::Menu) {
      int count = static_cast<int>(workflow_commands().size());
      if (key == KEY_UP) ui.selected = (ui.selected + count - 1) % count;
      else if (key == KEY_DOWN) ui.selected = (ui.selected + 1) % count;
      else if (key >= '1' && key < '1' + count) ui.selected = key - '1';
      else if (key == 'q' || key == 3) quit = true;
      else if (key == 'r' && ui.last_command) {
        ui.selected = *ui.last_command;
        ui.input = ui.last_input;
        run_selected();
      } else if (key == '\n' || key == KEY_ENTER || key == '\r') {
        if (workflow_commands()[static_cast<std::size_t>(ui.selected)].input_label[0]) {
          ui.focus = Focus::Input;
          ui.status = "Type the input, Enter to run, Esc to go back";
          ui.status_is_error = false;
        } else {
          run_selected();
        }
      }
    } else {
      if (key == 27) {
        ui.focus = Focus::Menu;
        ui.status = "";
      } else if (key == '\n' || key == KEY_ENTER || key == '\r') {
        run_selected();
      } else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
        if (!ui.input.empty()) ui.input.pop_back();
      } else if (key >= 32 && key < 127 && ui.input.size() < 4000) {
        ui.input += static_cast<char>(key);
      }
    }
  }
  ui.status = "Ending the session...";
  draw(runner, ui);
  if (worker.joinable()) worker.join();
  runner.finish();
  endwin();
  return ui.last_failed ? kExitCommandFailed : kExitOk;
}

}  // namespace spectui
