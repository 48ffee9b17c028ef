#include "workflow_runner.hpp"

#include "mcpref/http_client_channel.hpp"
#include "mcpref/stdio_client_channel.hpp"

#include <fmt/format.h>

namespace spectui {

McpSession::ChannelFactory channel_factory(const Config& config) {
  if (config.transport == "http") {
    std::string url = config.endpoint;
    return [url] {
      mcpref::HttpClientOptions o;
      o.url = url;
      return std::unique_ptr<mcpref::ClientChannel>(new mcpref::HttpClientChannel(o));
    };
  }
  std::vector<std::string> argv{config.command};
  argv.insert(argv.end(), config.args.begin(), config.args.end());
  return [argv] {
    mcpref::StdioClientOptions o;
    o.argv = argv;
    return std::unique_ptr<mcpref::ClientChannel>(new mcpref::StdioClientChannel(o));
  };
}

namespace {

SessionOptions session_options(const Config& c) {
  SessionOptions o;
  o.timeout = c.timeout;
  o.retries = c.retries;
  return o;
}

}  // namespace

WorkflowRunner::WorkflowRunner(const Config& config, OutputLog& log)
    : WorkflowRunner(config, log, channel_factory(config)) {}

WorkflowRunner::WorkflowRunner(const Config& config, OutputLog& log, McpSession::ChannelFactory factory)
    : config_(config), log_(log), session_(std::move(factory), session_options(config), log) {}

WorkflowRunner::~WorkflowRunner() { finish(); }

RunOutcome WorkflowRunner::connect() {
  RunOutcome out;
  try {
    session_.connect();
    out.ok = true;
    out.message = "Connected to " + session_.server_description();
    log_.line(out.message);
  } catch (const CommandFailed& e) {
    out.kind = e.kind();
    out.recoverable = e.recoverable();
    out.message = std::string("Error: ") + e.what();
    log_.line(out.message);
  }
  return out;
}

RunOutcome WorkflowRunner::run(const WorkflowCommand& command, const std::string& input) {
  busy_ = true;
  {
    std::lock_guard lock(mutex_);
    progress_.reset();
  }
  RunOutcome out;
  try {
    mcpref::Json args = build_arguments(command, input, config_.spec_directory);
    log_.line(fmt::format("> {} ({})", command.name, args["spec_directory"].get<std::string>()));
    std::string text = session_.call_tool(command.tool, args, [this](const ProgressModel& p) {
      {
        std::lock_guard lock(mutex_);
        progress_ = p;
      }
      log_.line("  " + p.line());
    });
    out.ok = true;
    out.message = text;
    log_.line(text);
  } catch (const std::invalid_argument& e) {
    out.kind = CommandFailed::Kind::InvalidInput;
    out.message = std::string("Error: ") + e.what();
    log_.line(out.message);
  } catch (const CommandFailed& e) {
    out.kind = e.kind();
    out.recoverable = e.recoverable();
    out.message = (e.kind() == CommandFailed::Kind::Cancelled ? "Cancelled: " : "Error: ") + std::string(e.what());
    log_.line(out.message);
  }
  busy_ = false;
  return out;
}

bool WorkflowRunner::cancel() {
  bool sent = session_.cancel();
  if (sent) log_.line("Cancelling...");
  return sent;
}

void WorkflowRunner::finish() { session_.shutdown(); }

ProgressModel WorkflowRunner::progress() const {
  std::lock_guard lock(mutex_);
  return progress_;
}

}  // namespace spectui
