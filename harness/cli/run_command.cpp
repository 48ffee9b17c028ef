// `mcpspec run`: run scenarios against a target and report.
#include "harness/authcheck/auth_checks.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/mcp_config.hpp"
#include "harness/cli/paths.hpp"
#include "harness/cli/selection.hpp"
#include "harness/cli/target_factory.hpp"
#include "harness/cli/trusting_server.hpp"
#include "harness/protocol/schema_registry.hpp"
#include "harness/protocol/era.hpp"
#include "harness/protocol/versions.hpp"
#include "harness/results/baseline.hpp"
#include "harness/results/summary.hpp"
#include "harness/scenario/requirements.hpp"
#include "harness/transport/http/url.hpp"
#include "harness/run/suite.hpp"
#include "reports/html_page.hpp"
#include "reports/report_file.hpp"
#include "reports/reporter.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fnmatch.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

namespace fs = std::filesystem;

namespace mcpspec::cli {

namespace {

struct RunArgs {
  TargetOptions target;  // --server, --url, --transport, --port-env, --startup-timeout-ms, --max-message-bytes
  Selection selection;
  std::string protocol = protocol::latest_version();
  int timeout_ms = 5000;
  int jobs = 0;
  std::vector<std::string> reports;
  std::string baseline;
  bool strict = false;
  bool wire = false;
  bool verbose = false;
  bool quiet = false;
  std::string schema;
  double deadline_s = 3600;
  scenario::CallTools call_tools = scenario::CallTools::ReadOnly;
  std::string targets_file;
  std::string write_baseline;
  std::string client;        // --client: a stdio client command with {server} (docs/testing-clients.md)
  bool cooperative = false;  // --cooperative: the client follows the client driver protocol
  std::string config;        // --config: an .mcp.json, claude_desktop_config.json or .vscode/mcp.json
  std::string config_name;   // --name: the one server of --config to test (default: all of them)
  // --auth (docs/authorization.md). With --url: the server is a protected resource; run the
  // authorization checks instead of the scenarios (the tokens select token mode). With --server over
  // http: the same checks, the server started trusting the harness's AS (mock-AS mode). With --client over
  // http: mcpspec's endpoint is protected and a mock authorization server runs beside it.
  bool auth = false;
  bool tls = false;  // --tls: with --client and --auth, https with a throwaway CA
  std::string auth_token, auth_token_low_scope, auth_token_other_audience, auth_token_expired;
};

// One thing to test: a server command (or a client command, or a running server's URL) with its
// suites and baseline. A default target's own transport and client settings override the CLI's.
struct Target {
  std::string name;
  std::string server;
  std::vector<std::string> scenarios;
  std::string baseline;
  std::string client;     // a client under test: its command (then `server` is empty)
  std::optional<transport::TransportKind> transport;  // unset: the CLI's --transport
  std::string url;        // with a network transport: the endpoint (its path, with a started server)
  std::string port_env;   // empty: the CLI's --port-env
  bool cooperative = false;
  std::vector<std::pair<std::string, std::string>> headers;  // a network server's request headers (--config)
};

// The bundled default: scenarios/targets.json names our reference servers and their suites.
std::vector<Target> default_targets(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw UsageError("no --server given and no default targets file at " + file);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    throw UsageError(file + ": not valid JSON: " + e.what());
  }
  std::vector<Target> out;
  if (!doc.contains("targets") || !doc["targets"].is_array()) throw UsageError(file + ": needs a \"targets\" array");
  std::string home = home_dir(), bin = binary_dir();
  auto expand = [&](std::string s) {
    for (auto [k, v] : {std::pair<std::string, std::string>{"${bindir}", bin}, {"${home}", home}}) {
      for (auto p = s.find(k); p != std::string::npos; p = s.find(k)) s.replace(p, k.size(), v);
    }
    return s;
  };
  auto text = [&](const nlohmann::json& t, const char* key, const std::string& where) -> std::string {
    if (!t.contains(key)) return "";
    if (!t[key].is_string() || t[key].get<std::string>().empty())
      throw UsageError(where + "/" + key + ": must be a non-empty string");
    return t[key].get<std::string>();
  };
  for (std::size_t i = 0; i < doc["targets"].size(); ++i) {
    const auto& t = doc["targets"][i];
    std::string where = file + ": /targets/" + std::to_string(i);
    if (!t.is_object() || !t.contains("name") || !t["name"].is_string())
      throw UsageError(where + ": needs a \"name\" string");
    Target tg;
    tg.name = t["name"];
    tg.server = expand(text(t, "server", where));
    tg.client = expand(text(t, "client", where));
    tg.url = text(t, "url", where);
    if (std::string name = text(t, "transport", where); !name.empty()) {
      tg.transport = transport::parse_transport(name);
      if (!tg.transport) throw UsageError(where + "/transport: \"" + name + "\" is not one of stdio, http, sse, ws");
    }
    tg.port_env = text(t, "port_env", where);
    if (tg.server.empty() == tg.client.empty() && tg.url.empty())
      throw UsageError(where + ": needs exactly one of \"server\" (a server command) and \"client\" (a client command)");
    if (t.contains("cooperative")) {
      if (!t["cooperative"].is_boolean()) throw UsageError(where + "/cooperative: must be true or false");
      tg.cooperative = t["cooperative"];
    }
    if (t.contains("scenarios") && !t["scenarios"].is_array()) throw UsageError(where + "/scenarios: must be an array");
    for (const auto& s : t.value("scenarios", nlohmann::json::array())) {
      if (!s.is_string()) throw UsageError(where + "/scenarios: every entry must be a path string");
      tg.scenarios.push_back(expand(home + "/" + s.get<std::string>()));
    }
    std::string baseline = text(t, "baseline", where);
    if (!baseline.empty()) tg.baseline = expand(home + "/" + baseline);
    out.push_back(std::move(tg));
  }
  return out;
}

// With several targets in one invocation, file reports get the target's name: out.json -> out.chant.json.
std::string report_spec_for(const std::string& spec, const std::string& target, bool several) {
  auto colon = spec.find(':');
  if (!several || colon == std::string::npos) return spec;
  std::string path = spec.substr(colon + 1);
  if (path == "-") return spec;
  fs::path p(path);
  // A target's name may come from a config file: only file-name-safe characters go into the path.
  std::string safe = target;
  for (char& c : safe)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '_';
  return spec.substr(0, colon + 1) + (p.parent_path() / (p.stem().string() + "." + safe + p.extension().string())).string();
}

// The console reporter (unless a report already goes to stdout) and every --report, with several
// targets' file reports named per target.
std::vector<std::unique_ptr<reports::Reporter>> make_reporters(const RunArgs& a, const Target& target, bool several) {
  reports::ReportOptions ro;
  ro.wire = a.wire;
  ro.verbose = a.verbose;
  ro.quiet = a.quiet;
  const bool tty = ::isatty(1) != 0;
  ro.color = tty && std::getenv("NO_COLOR") == nullptr;
  ro.progress = tty && !a.quiet;
  ro.console = &std::cout;
  std::vector<std::string> specs = a.reports;
  bool console_given = std::any_of(specs.begin(), specs.end(), [](const std::string& s) {
    return s == "console" || (s.size() > 2 && s.substr(s.size() - 2) == ":-");
  });
  if (!console_given) specs.insert(specs.begin(), "console");
  std::vector<std::unique_ptr<reports::Reporter>> reporters;
  for (const auto& s : specs) {
    try {
      reporters.push_back(reports::make_reporter(report_spec_for(s, target.name, several), ro));
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--report ") + s + ": " + e.what());
    }
  }
  return reporters;
}

// Writes the results to the reporters and returns the run's exit code (2 when a report fails).
int finish_reports(std::vector<std::unique_ptr<reports::Reporter>>& reporters, const RunInfo& info,
                   const std::vector<ScenarioResult>& results, const RunSummary& summary) {
  for (auto& rep : reporters) {
    try {
      rep->on_finish(info, results, summary);
    } catch (const std::exception& e) {
      std::cerr << "mcpspec: could not write a report: " << e.what() << "\n";
      return 2;
    }
  }
  return exit_code(summary);
}

// `--auth`: the authorization checks of the server at --url, once per proposed version that has
// authorization (2025-03-26 onwards), reported like scenarios. With --server (and --transport http)
// the server is started trusting the harness's authorization server: mock-AS mode.
int run_auth(const RunArgs& a, const Target& target, bool several) {
  std::unique_ptr<TrustingServer> started;
  std::string endpoint = a.target.url;
  if (!a.target.server.empty()) {
    if (a.target.transport != transport::TransportKind::Http)
      throw UsageError("--auth with --server needs --transport http (and --port-env, the variable that tells the "
                       "server its port): the server is started trusting the harness's authorization server");
    std::string path = "/mcp";
    if (!a.target.url.empty()) {
      try {
        path = transport::http::parse_url(a.target.url).target;
      } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--url: ") + e.what());
      }
    }
    try {
      started = std::make_unique<TrustingServer>(a.target.server, a.target.port_env, path, a.target.startup_timeout_ms);
    } catch (const std::runtime_error& e) {
      std::cerr << "mcpspec: cannot check " << a.target.server << ": " << e.what() << "\n";
      return 2;
    }
    endpoint = started->endpoint();
  } else if (a.target.url.empty()) {
    throw UsageError("--auth checks a server over HTTP: give its endpoint with --url http(s)://HOST:PORT/PATH, or "
                     "start it with --server CMD --transport http --port-env NAME");
  }
  // An endpoint that cannot be reached is one line and exit 2, as for scenarios (docs/reports.md).
  if (std::string why = authcheck::unreachable(endpoint, a.timeout_ms); !why.empty()) {
    std::cerr << "mcpspec: cannot check " << endpoint << ": " << why << "\n";
    return 2;
  }
  auto reporters = make_reporters(a, target, several);
  std::vector<std::string> versions;
  for (const auto& v : protocols_from(a.protocol))
    if (v >= "2025-03-26") versions.push_back(v);
  if (versions.empty()) throw UsageError("--auth: protocol " + a.protocol + " has no authorization specification");
  RunInfo info;
  info.mcpspec_version = MCPSPEC_VERSION;
  info.target = started ? a.target.server : endpoint;
  info.started_at = iso_now();
  info.protocols = versions;
  info.strict = a.strict;
  auto t0 = Clock::now();
  for (auto& rep : reporters) rep->on_start(info, 0);
  std::vector<ScenarioResult> results;
  for (const auto& v : versions) {
    authcheck::AuthOptions o;
    o.endpoint = endpoint;
    o.protocol = v;
    o.mock_as = started ? &started->authorization_server() : nullptr;
    o.token = a.auth_token;
    o.low_scope_token = a.auth_token_low_scope;
    o.other_audience_token = a.auth_token_other_audience;
    o.expired_token = a.auth_token_expired;
    o.call_tools = a.call_tools != scenario::CallTools::None;
    o.timeout_ms = a.timeout_ms;
    o.catalog = &scenario::RequirementCatalog::builtin();
    // Every check runs (each builds on the ones before); --filter picks the ones reported.
    auto selected = [&](const ScenarioResult& r) {
      return a.selection.filters.empty() ||
             std::any_of(a.selection.filters.begin(), a.selection.filters.end(),
                         [&](const std::string& g) { return fnmatch(g.c_str(), r.id.c_str(), 0) == 0; });
    };
    auto got = authcheck::run_auth_checks(o, [&](const ScenarioResult& r) {
      if (selected(r))
        for (auto& rep : reporters) rep->on_result(r);
    });
    std::copy_if(got.begin(), got.end(), std::back_inserter(results), selected);
  }
  info.duration_ms = ms_since(t0);
  return finish_reports(reporters, info, results, summarize(results, a.strict));
}

// Runs one target; `collected` (when given) receives the run, for a matrix of several targets.
int run_one(const RunArgs& a, const Target& target, bool several, reports::HtmlRun* collected = nullptr) {
  if (a.auth && a.client.empty()) return run_auth(a, target, several);
  Selection sel = a.selection;
  if (sel.paths.empty()) sel.paths = target.scenarios;
  if (sel.paths.empty() && !a.client.empty())
    sel.paths = {home_dir() + (a.auth ? "/scenarios/mcp/auth-client" : "/scenarios/mcp/client")};
  // An HTTP client also gets the checks of its transport itself (not in an --auth run: its suite is
  // the authorization flow).
  if (a.selection.paths.empty() && target.scenarios.empty() && !a.client.empty() && !a.auth &&
      (a.target.transport == transport::TransportKind::Http || a.target.transport == transport::TransportKind::Sse))
    sel.paths.push_back(home_dir() + "/scenarios/mcp/transport/" + transport::transport_name(*a.target.transport) +
                        "-client");
  auto scenarios = select_scenarios(sel);
  // A run tests one role: scenarios written for the other role are left out rather than skipped.
  scenario::Role role = a.client.empty() ? scenario::Role::Server : scenario::Role::Client;
  scenarios.erase(std::remove_if(scenarios.begin(), scenarios.end(), [&](const auto& s) { return s.role != role; }),
                  scenarios.end());
  if (scenarios.empty()) throw UsageError("no scenario matches the given paths, --filter and --tag");
  auto protocols = protocols_from(a.protocol);

  std::unique_ptr<protocol::SchemaRegistry> user_schema;
  if (!a.schema.empty()) user_schema = protocol::SchemaRegistry::from_file(a.schema, protocols.front());

  Baseline baseline;
  std::string baseline_path = a.baseline.empty() ? target.baseline : a.baseline;
  if (!baseline_path.empty()) baseline = Baseline::load(baseline_path);

  auto reporters = make_reporters(a, target, several);

  scenario::SuiteOptions so;
  if (!a.client.empty()) {
    so.config.carrier = client_carrier(a.client, a.target.transport, a.auth, binary_dir() + "/mcpspec",
                                       a.target.max_message_bytes, a.tls);
    so.config.role = scenario::Role::Client;
    so.config.cooperative_client = a.cooperative;
    so.config.auth_client = a.auth;
  } else {
    TargetOptions to = a.target;
    to.server = target.server;
    so.config.target = server_target(to);
  }
  so.config.timeout_ms = a.timeout_ms;
  so.config.startup_timeout_ms = a.target.startup_timeout_ms;
  // A server reached by --url is already running: no start-up allowance before its first answer.
  if (!a.target.url.empty() && a.target.server.empty()) so.config.startup_timeout_ms = a.timeout_ms;
  so.config.call_tools = a.call_tools;
  so.config.schemas = user_schema ? user_schema.get() : &protocol::SchemaRegistry::builtin();
  so.config.catalog = &scenario::RequirementCatalog::builtin();
  so.config.run_deadline = Deadline::after_ms(static_cast<long long>(a.deadline_s * 1000));
  so.protocols = protocols;
  so.jobs = a.jobs > 0 ? a.jobs : scenario::kDefaultJobs;
  so.strict = a.strict;
  so.baseline = baseline.empty() ? nullptr : &baseline;
  // A target that cannot be started or reached is one set-up error (exit 2), not a FAIL per scenario.
  so.config.proposed_version = protocols.front();
  if (!target_starts(so.config)) return 2;
  so.on_result = [&](const ScenarioResult& r) {
    for (auto& rep : reporters) rep->on_result(r);
  };
  so.on_note = [](const std::string& text) { std::cerr << "mcpspec: " << text << "\n"; };

  RunInfo info;
  info.mcpspec_version = MCPSPEC_VERSION;
  info.target = !target.server.empty() ? target.server : !target.client.empty() ? target.client : a.target.url;
  info.started_at = iso_now();
  info.protocols = protocols;
  info.strict = a.strict;
  auto t0 = Clock::now();
  for (auto& rep : reporters) rep->on_start(info, scenarios.size() * protocols.size());
  auto results = scenario::run_suite(scenarios, so);
  info.duration_ms = ms_since(t0);
  info.stale_baseline = baseline.stale(protocols);
  auto summary = summarize(results, a.strict);
  if (!a.write_baseline.empty()) {
    std::string path = report_spec_for("x:" + a.write_baseline, target.name, several).substr(2);
    std::ofstream out(path);
    out << make_baseline(results).dump(2) << "\n";
    if (!out) {
      std::cerr << "mcpspec: could not write the baseline " << path << "\n";
      return 2;
    }
    std::cout << "baseline of this run's failures written to " << path << "\n";
  }
  int code = finish_reports(reporters, info, results, summary);
  if (code == 2) return 2;
  if (collected) *collected = reports::HtmlRun{target.name, info, std::move(results), summary};
  return code;
}

// Several targets in one invocation (the bundled defaults, or every server of a config file): each
// with its own role, transport and reports (out.json -> out.<name>.json); the worst exit code wins.
int run_targets(const RunArgs& args, const std::vector<Target>& targets) {
  // With several targets, html:PATH is the matrix of all of them (each also gets PATH.<name>.html).
  std::vector<std::string> matrices;
  for (const auto& spec : args.reports)
    if (spec.rfind("html:", 0) == 0 && spec != "html:-" && targets.size() > 1) matrices.push_back(spec.substr(5));
  std::vector<reports::HtmlRun> runs;
  int worst = 0;
  std::vector<std::string> untested;
  for (const auto& t : targets) {
    std::cout << fmt::format("\n=== target {}: {}\n", t.name,
                             !t.client.empty() ? "client " + t.client : !t.server.empty() ? t.server : t.url);
    RunArgs ta = args;  // the target's own role and transport settings
    ta.target.server = t.server;
    ta.client = t.client;
    if (!t.url.empty()) ta.target.url = t.url;
    if (t.transport) ta.target.transport = t.transport;
    if (!t.port_env.empty()) ta.target.port_env = t.port_env;
    ta.target.headers = t.headers;
    ta.cooperative = ta.cooperative || t.cooperative;
    reports::HtmlRun run;
    int code = run_one(ta, t, targets.size() > 1, matrices.empty() ? nullptr : &run);
    if (code == 2) untested.push_back(t.name);
    worst = std::max(worst, code);
    if (!matrices.empty()) runs.push_back(std::move(run));
  }
  // The other targets ran in full; repeat at the end which ones could not be tested at all.
  if (!untested.empty())
    std::cerr << fmt::format("mcpspec: {} of {} target(s) could not be tested: {}\n", untested.size(), targets.size(),
                             fmt::join(untested, ", "));
  for (const auto& path : matrices) {
    try {
      reports::write_report(path, "html", reports::html_matrix_page(runs));
      std::cout << fmt::format("matrix of the {} targets written to {}\n", runs.size(), path);
    } catch (const std::exception& e) {
      std::cerr << "mcpspec: could not write a report: " << e.what() << "\n";
      return 2;
    }
  }
  return worst;
}

// The servers of a config file as targets: all of them, or the one called `name`.
std::vector<Target> config_targets(const std::string& file, const std::string& name) {
  auto servers = read_mcp_config(file);
  if (!name.empty()) servers = {configured_server(servers, name, file)};
  std::vector<Target> out;
  for (const auto& s : servers) {
    Target t;
    t.name = s.name;
    t.server = s.command;
    t.url = s.url;
    if (s.transport != transport::TransportKind::Stdio) t.transport = s.transport;
    t.headers = s.headers;
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand("run", "Run scenarios against an MCP server (default: the bundled reference servers)");
  cmd->add_option("--server", args->target.server, "Command that starts the server under test (stdio), run by /bin/sh");
  cmd->add_option("paths", args->selection.paths, "Scenario files or folders (default: the generic suite scenarios/mcp)");
  cmd->add_option("--filter", args->selection.filters, "Only scenarios whose id matches this glob (repeatable)")->allow_extra_args(false);
  cmd->add_option("--tag", args->selection.tags, "Only scenarios with this tag (repeatable)")->allow_extra_args(false);
  cmd->add_option("--protocol", args->protocol, "Protocol version to propose, or 'all' to run once per version")
      ->capture_default_str();
  cmd->add_option("--timeout-ms", args->timeout_ms, "Default wait for each expected message")
      ->check(CLI::Range(1, 600000))
      ->capture_default_str();
  cmd->add_option("--startup-timeout-ms", args->target.startup_timeout_ms,
                  "Wait allowed before the target's first output (process start-up)")
      ->check(CLI::Range(1, 600000))
      ->capture_default_str();
  cmd->add_option("--jobs,-j", args->jobs, "Scenarios run in parallel, each in its own session (default: 16, fewer when the target cannot take that many)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--report", args->reports, "console | json:PATH | junit:PATH | md:PATH | html:PATH (repeatable; PATH - is stdout)")
      ->allow_extra_args(false);
  cmd->add_option("--baseline", args->baseline, "Expected failures file (JSON); an expected failure that passes fails the run")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--strict", args->strict, "SHOULD violations (WARN) fail the run");
  cmd->add_flag("--wire", args->wire, "Print the full wire log of failing cases");
  auto* verbose = cmd->add_flag("--verbose,-v", args->verbose,
                                "List passing and skipped cases too, and the full evidence of failures");
  cmd->add_flag("--quiet,-q", args->quiet, "Only the failing cases, one line each, and the count line (for CI logs)")
      ->excludes(verbose);
  cmd->add_option("--schema", args->schema, "Validate messages against this schema file instead of mcpspec's own")
      ->check(CLI::ExistingFile);
  cmd->add_option("--deadline", args->deadline_s, "Bound on the whole run, in seconds")
      ->check(CLI::Range(1.0, 7 * 24 * 3600.0))
      ->capture_default_str();
  add_call_tools_option(cmd, args->call_tools, "Which listed tools generic scenarios may call: none, readonly, all");
  cmd->add_option("--max-message-bytes", args->target.max_message_bytes, "Largest message accepted from the target")
      ->check(CLI::Range(static_cast<std::size_t>(1024), static_cast<std::size_t>(1) << 30))
      ->capture_default_str();
  cmd->add_option("--write-baseline", args->write_baseline,
                  "Write this run's failures as a baseline file (review the reasons before committing it)");
  cmd->add_option("--targets", args->targets_file, "Default targets file used when no --server is given");
  cmd->add_option("--config", args->config,
                  "Test the servers of an MCP config file: .mcp.json, claude_desktop_config.json or .vscode/mcp.json");
  cmd->add_option("--name", args->config_name, "With --config: test only the server of this name");
  cmd->add_option("--client", args->client,
                  "Test a client: its command, with {server} (or {server_argv_json}) where the server command "
                  "goes (stdio), or {url} where the endpoint URL goes (--transport http) (default suite: "
                  "scenarios/mcp/client)");
  cmd->add_flag("--cooperative", args->cooperative,
                "The --client follows the client driver protocol (MCPSPEC_CONTEXT), so scenarios tagged "
                "'cooperative' run instead of being skipped");
  cmd->add_option("--url", args->target.url, "Test a running server at this URL (http://HOST:PORT/PATH or ws://...)");
  add_transport_option(cmd, args->target.transport,
                       "stdio (default), http (Streamable HTTP), sse (2024-11-05 HTTP+SSE) or ws");
  cmd->add_option("--port-env", args->target.port_env,
                  "With --server and a network --transport: the environment variable that gets the free port")
      ->capture_default_str();
  auto* auth = cmd->add_flag("--auth", args->auth,
                              "OAuth (docs/authorization.md). With --url: the server is a protected resource; run the "
                              "authorization checks instead of scenarios. With --server and --transport http: the same, "
                              "the server started trusting mcpspec's authorization server "
                              "($MCP_CONFORMANCE_AUTH_SERVER_URL), tokens minted there. With --client and --transport http: the "
                              "endpoint is protected and a mock authorization server runs beside it (default suite: "
                              "scenarios/mcp/auth-client)");
  cmd->add_flag("--tls", args->tls,
                "With --client, --transport http and --auth: the endpoint and the mock authorization server serve "
                "https with a certificate of a throwaway CA; the client gets the CA file in SSL_CERT_FILE, "
                "NODE_EXTRA_CA_CERTS and REQUESTS_CA_BUNDLE")
      ->needs(auth);
  cmd->add_option("--auth-token", args->auth_token, "With --auth: a token the server accepts (token mode)")->needs(auth);
  cmd->add_option("--auth-token-low-scope", args->auth_token_low_scope,
                  "With --auth: a valid token lacking a scope some operation needs (expects 403 insufficient_scope)")
      ->needs(auth);
  cmd->add_option("--auth-token-other-audience", args->auth_token_other_audience,
                  "With --auth: a token issued for another resource (must be refused)")
      ->needs(auth);
  cmd->add_option("--auth-token-expired", args->auth_token_expired,
                  "With --auth: an expired token issued for this server (must be refused)")
      ->needs(auth);
  cmd->callback([args, &exit_code] {
    if (args->auth && !args->config.empty()) throw UsageError("--auth cannot be combined with --config");
    if (args->tls && args->client.empty())
      throw UsageError("--tls serves https to a client under test: give --client CMD --transport http --auth");
    // The tokens are for checking a server; a client under test gets its tokens from the mock AS.
    if (!args->client.empty() && (!args->auth_token.empty() || !args->auth_token_low_scope.empty() ||
                                  !args->auth_token_other_audience.empty() || !args->auth_token_expired.empty()))
      throw UsageError("--auth-token* options check a server given by --url or --server; with --client the mock authorization "
                       "server issues the tokens");
    if (!args->config_name.empty() && args->config.empty()) throw UsageError("--name picks a server of --config FILE: give the file");
    if (!args->config.empty()) {
      if (!args->client.empty() || !args->target.server.empty() || !args->target.url.empty())
        throw UsageError("--config cannot be combined with --server, --url or --client");
      auto targets = config_targets(args->config, args->config_name);
      std::cout << fmt::format("Testing {} server(s) of {}\n", targets.size(), args->config);
      exit_code = run_targets(*args, targets);
      return;
    }
    if (!args->client.empty()) {
      if (!args->target.server.empty() || !args->target.url.empty()) throw UsageError("--client cannot be combined with --server or --url");
      Target t;  // the CLI's own target
      t.name = "client";
      t.client = args->client;
      exit_code = run_one(*args, t, false);
      return;
    }
    if (!args->target.server.empty() || !args->target.url.empty()) {
      Target t;
      t.name = "server";
      t.server = args->target.server;  // empty for a running server reached by --url
      exit_code = run_one(*args, t, false);
      return;
    }
    std::string file = args->targets_file.empty() ? home_dir() + "/scenarios/targets.json" : args->targets_file;
    auto targets = default_targets(file);
    std::cout << fmt::format("No --server given: testing the {} bundled target(s) listed in {}\n", targets.size(), file);
    exit_code = run_targets(*args, targets);
  });
}

}  // namespace mcpspec::cli
