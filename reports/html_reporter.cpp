// `--report html:PATH`: the run as one self-contained HTML page (reports/html_page.hpp).
#include "reports/formats.hpp"
#include "reports/html_page.hpp"
#include "reports/report_file.hpp"

namespace mcpspec::reports {

namespace {

class HtmlReporter final : public Reporter {
 public:
  explicit HtmlReporter(std::string path) : path_(std::move(path)) {}
  void on_finish(const RunInfo& info, const std::vector<ScenarioResult>& results, const RunSummary& s) override {
    write_report(path_, "html", html_report_page(HtmlRun{info.target, info, results, s}));
  }

 private:
  std::string path_;
};

}  // namespace

std::unique_ptr<Reporter> make_html_reporter(const std::string& path) { return std::make_unique<HtmlReporter>(path); }

}  // namespace mcpspec::reports
