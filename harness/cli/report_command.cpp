// `mcpspec report merge a.json b.json ... --html matrix.html`: several runs' JSON reports
// (implementations, protocol versions, transports) as one HTML page, a requirement x run matrix
// whose cells link to the cases behind them. One report alone becomes its run's HTML page.
#include "harness/cli/commands.hpp"
#include "reports/html_page.hpp"
#include "reports/report_file.hpp"
#include "reports/report_reader.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <iostream>
#include <memory>

namespace mcpspec::cli {

namespace {

struct MergeArgs {
  std::vector<std::string> reports;
  std::string html;
};

}  // namespace

void add_report_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("report", "Work with JSON reports of earlier runs");
  cmd->require_subcommand(1);
  auto args = std::make_shared<MergeArgs>();
  auto* merge = cmd->add_subcommand("merge", "Render several runs' JSON reports as one HTML matrix (requirement x run)");
  merge->add_option("reports", args->reports, "JSON reports written by mcpspec run --report json:PATH")->required();
  merge->add_option("--html", args->html, "Where to write the matrix page ('-' for standard output)")->required();
  merge->callback([args, &exit_code] {
    try {
      reports::check_report_path(args->html, "html");
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--html: ") + e.what());
    }
    std::vector<reports::HtmlRun> runs;
    for (const auto& path : args->reports) {
      try {
        runs.push_back(reports::load_json_report(path));
      } catch (const std::runtime_error& e) {
        throw UsageError(e.what());
      }
    }
    // One report alone is its run's page (the same as --report html:PATH would have written).
    reports::write_report(args->html, "html",
                          runs.size() == 1 ? reports::html_report_page(runs.front()) : reports::html_matrix_page(runs));
    if (args->html != "-")
      std::cerr << (runs.size() == 1 ? fmt::format("report page written to {}\n", args->html)
                                      : fmt::format("matrix of {} runs written to {}\n", runs.size(), args->html));
    exit_code = 0;
  });
}

}  // namespace mcpspec::cli
