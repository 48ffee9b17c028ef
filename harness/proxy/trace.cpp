#include "harness/proxy/trace.hpp"

#include "harness/protocol/peer_json.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <optional>
#include <stdexcept>

namespace mcpspec::proxy {

using nlohmann::json;

const char* direction_name(Direction d) {
  switch (d) {
    case Direction::ClientToServer: return "c2s";
    case Direction::ServerToClient: return "s2c";
    case Direction::Stderr: return "stderr";
  }
  return "?";
}

std::string trace_line(const TraceEntry& e) {
  json j = {{"t_ms", e.t_ms}, {"dir", direction_name(e.dir)}, {"text", e.text}};
  if (!e.http.is_null()) j["http"] = e.http;
  // A trace must never stop being written because a server wrote bytes that are not UTF-8.
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

TraceWriter::TraceWriter(const std::string& path) : file_(std::fopen(path.c_str(), "w")) {
  if (!file_) throw std::runtime_error("cannot create the trace file " + path);
}

TraceWriter::~TraceWriter() {
  if (file_) std::fclose(file_);
}

void TraceWriter::write(const TraceEntry& e) {
  std::string line = trace_line(e) + "\n";
  std::lock_guard<std::mutex> lock(mu_);
  std::fwrite(line.data(), 1, line.size(), file_);
  std::fflush(file_);
}

namespace {

Direction parse_direction(const std::string& s, const std::string& where) {
  if (s == "c2s") return Direction::ClientToServer;
  if (s == "s2c") return Direction::ServerToClient;
  if (s == "stderr") return Direction::Stderr;
  throw std::runtime_error(where + ": \"dir\" is \"" + s + "\"; expected \"c2s\", \"s2c\" or \"stderr\"");
}

// One event line of mcp-trace-validator's format; nullopt for an event that carries no message.
std::optional<TraceEntry> foreign_event(const json& j, const std::string& where) {
  if (!j.contains("direction") || !j["direction"].is_string())
    throw std::runtime_error(where + ": \"direction\" missing or not a string");
  if (!j.contains("kind") || !j["kind"].is_string()) throw std::runtime_error(where + ": \"kind\" missing or not a string");
  const std::string d = j["direction"].get<std::string>();
  TraceEntry e;
  if (d == "client-to-server") e.dir = Direction::ClientToServer;
  else if (d == "server-to-client") e.dir = Direction::ServerToClient;
  else
    throw std::runtime_error(where + ": \"direction\" is \"" + d + "\"; expected \"client-to-server\" or \"server-to-client\"");
  if (j["kind"] != "message") return std::nullopt;
  if (!j.contains("payload")) throw std::runtime_error(where + ": a \"message\" event without \"payload\"");
  e.text = j["payload"].dump(-1, ' ', false, json::error_handler_t::replace);
  return e;
}

}  // namespace

std::vector<TraceEntry> read_trace(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read the trace file " + path);
  std::vector<TraceEntry> out;
  std::string line;
  int lineno = 0;
  bool format_known = false, foreign = false;
  while (std::getline(in, line)) {
    ++lineno;
    std::string where = fmt::format("{}:{}", path, lineno);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    // The gate for outside input (bounded depth and numbers): a trace is a file anyone may hand us.
    auto read = protocol::read_peer_json(line);
    if (read.status != protocol::PeerJson::Status::Ok || !read.value.is_object())
      throw std::runtime_error(where + ": not a JSON object" + (read.detail.empty() ? "" : " (" + read.detail + ")"));
    json j = std::move(read.value);
    // The first entry decides the format: an mcp-trace-validator event has "direction" and "kind".
    if (!format_known) {
      foreign = !j.contains("dir") && j.contains("direction") && j.contains("kind");
      format_known = true;
    }
    if (foreign) {
      if (auto e = foreign_event(j, where)) out.push_back(std::move(*e));
      continue;
    }
    if (!j.contains("dir") || !j["dir"].is_string()) throw std::runtime_error(where + ": \"dir\" missing or not a string");
    if (!j.contains("text") || !j["text"].is_string())
      throw std::runtime_error(where + ": \"text\" missing or not a string");
    if (j.contains("t_ms") && !j["t_ms"].is_number()) throw std::runtime_error(where + ": \"t_ms\" is not a number");
    TraceEntry e;
    e.dir = parse_direction(j["dir"].get<std::string>(), where);
    e.text = j["text"].get<std::string>();
    e.t_ms = j.value("t_ms", 0.0);
    if (j.contains("http")) {
      if (!j["http"].is_object()) throw std::runtime_error(where + ": \"http\" is not an object");
      e.http = j["http"];
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace mcpspec::proxy
