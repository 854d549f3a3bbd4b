// `troyka watch ENDPOINT`: subscribes to what a referee publishes (`troyka referee --publish`) and
// draws the boards of the matches in progress. On a terminal the screen is redrawn in place after
// each batch of events; otherwise (a pipe, a log) each event is a line and each finished game's
// board is printed once.
#pragma once

#include <iosfwd>
#include <string>

#include "cli/board_view.h"
#include "cli/referee_command.h"

namespace CLI {
class App;
}

namespace troyka::cli {

struct WatchOptions {
  std::string endpoint;
  bool ascii = false;
  bool no_color = false;
  CurveClientOptions curve;
};

CLI::App* add_watch_command(CLI::App& app, WatchOptions& options);

// Watches until the referee publishes the end of the tournament. `terminal`: redraw in place;
// `style.color` is used only then.
int run_watch_command(const WatchOptions& options, const BoardStyle& style, bool terminal, std::ostream& out);

}  // namespace troyka::cli
