// The read-only tools: chant_spec_list, chant_spec_get, chant_ready, chant_status, chant_log,
// chant_search, chant_verify. JSON outputs are pretty-printed into the text content.
#include "tools.hpp"

#include "clock.hpp"
#include "criteria.hpp"
#include "log_tail.hpp"
#include "spec_id.hpp"
#include "spec_json.hpp"
#include "tool_error.hpp"

#include "mcpref/atomic_file.hpp"
#include "mcpref/tool_result.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>

namespace chant {

using mcpref::Json;

namespace {

constexpr std::size_t kDefaultLimit = 50;
constexpr std::size_t kDefaultLogLines = 100;

Json pretty_result(const Json& value) { return mcpref::tool_success(mcpref::to_pretty(value)); }

std::optional<StatusFilter> status_filter_arg(const ToolArgs& args) {
  auto text = args.optional_string("status");
  if (!text) return std::nullopt;
  auto f = parse_status_filter(*text);
  if (!f) {
    throw ToolError(fmt::format("Invalid status filter '{}': expected one of {}", printable(*text),
                                kStatusFilters));
  }
  return f;
}

bool matches(const Spec& s, StatusFilter f, const Readiness& readiness) {
  switch (f) {
    case StatusFilter::Pending: return s.status == Status::Pending;
    case StatusFilter::InProgress: return s.status == Status::InProgress;
    case StatusFilter::Completed: return s.status == Status::Completed;
    case StatusFilter::Failed: return s.status == Status::Failed;
    case StatusFilter::Cancelled: return s.status == Status::Cancelled;
    case StatusFilter::NeedsAttention: return s.status == Status::NeedsAttention;
    case StatusFilter::Ready: return readiness.ready(s);
    case StatusFilter::Blocked:
      return s.status == Status::Blocked ||
             (s.status == Status::Pending && !readiness.unmet(s).empty());
  }
  return false;
}

// {"specs": [...], "total", "limit", "returned"} (+ "errors" when some files are unreadable).
Json limited_listing(const std::vector<const Spec*>& selected, std::size_t limit,
                     const std::vector<SpecStore::Problem>& problems) {
  Json specs = Json::array();
  for (std::size_t i = 0; i < selected.size() && i < limit; ++i) specs.push_back(spec_summary(*selected[i]));
  Json out = Json::object();
  std::size_t returned = specs.size();
  out["specs"] = std::move(specs);
  out["total"] = selected.size();
  out["limit"] = limit;
  out["returned"] = returned;
  if (!problems.empty()) out["errors"] = problems_json(problems);
  return out;
}

std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace

Json tool_spec_list(SpecStore& store, const ToolArgs& args) {
  auto filter = status_filter_arg(args);
  std::size_t limit = args.optional_count("limit", kDefaultLimit);
  auto listing = store.load_all();
  Readiness readiness(listing.specs, store.archived_ids());
  std::vector<const Spec*> selected;
  for (const auto& s : listing.specs) {
    if (!filter || matches(s, *filter, readiness)) selected.push_back(&s);
  }
  return pretty_result(limited_listing(selected, limit, listing.problems));
}

Json tool_spec_get(SpecStore& store, const ToolArgs& args) {
  std::string id = store.resolve(args.required_string("id"));
  return pretty_result(spec_detail(store.load(id), store.paths()));
}

Json tool_ready(SpecStore& store, const ToolArgs& args) {
  std::size_t limit = args.optional_count("limit", kDefaultLimit);
  auto listing = store.load_all();
  Readiness readiness(listing.specs, store.archived_ids());
  std::vector<const Spec*> selected;
  for (const auto& s : listing.specs) {
    if (readiness.ready(s)) selected.push_back(&s);
  }
  return pretty_result(limited_listing(selected, limit, listing.problems));
}

Json tool_status(SpecStore& store, const ToolArgs& args) {
  bool brief = args.optional_bool("brief", false);
  bool include_activity = args.optional_bool("include_activity", false);
  auto listing = store.load_all();

  // Fixed order: the JSON keys and the brief line both follow it.
  const Status order[] = {Status::Pending, Status::InProgress, Status::Completed, Status::Failed,
                          Status::Blocked, Status::Cancelled, Status::NeedsAttention};
  std::map<Status, std::size_t> counts;
  for (const auto& s : listing.specs) ++counts[s.status];

  if (brief) {
    std::string line;
    for (Status st : order) {
      if (counts[st] == 0) continue;
      if (!line.empty()) line += " | ";
      line += fmt::format("{} {}", counts[st], to_string(st));
    }
    if (!listing.problems.empty()) {
      if (!line.empty()) line += " | ";
      line += fmt::format("{} unreadable", listing.problems.size());
    }
    return mcpref::tool_success(line.empty() ? "No specs" : line);
  }

  Json out = Json::object();
  out["total"] = listing.specs.size();
  for (Status st : order) out[std::string(to_string(st))] = counts[st];
  if (include_activity) {
    Json activity = Json::array();
    for (const auto& s : listing.specs) {
      if (s.status != Status::InProgress) continue;
      auto log_time = local_mtime(store.log_file(s.id));
      Json a = Json::object();
      a["id"] = s.id;
      a["title"] = s.title ? Json(*s.title) : Json(nullptr);
      auto spec_time = local_mtime(store.spec_file(s.id));
      a["spec_modified"] = spec_time ? Json(*spec_time) : Json(nullptr);
      a["log_modified"] = log_time ? Json(*log_time) : Json(nullptr);
      a["has_log"] = log_time.has_value();
      activity.push_back(std::move(a));
    }
    out["in_progress_activity"] = std::move(activity);
  }
  if (!listing.problems.empty()) {
    out["unreadable"] = listing.problems.size();
    out["errors"] = problems_json(listing.problems);
  }
  return pretty_result(out);
}

Json tool_log(SpecStore& store, const ToolArgs& args) {
  std::string query = args.required_string("id");
  std::size_t lines = args.optional_count("lines", kDefaultLogLines);
  std::string id = store.resolve(query);
  std::filesystem::path file = store.log_file(id);
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(file, ec))) {
    throw ToolError(fmt::format("No log file for spec {}: {} does not exist", id,
                                store.paths().display(file)));
  }
  LogTail tail;
  try {
    tail = read_log_tail(file, lines);
  } catch (const mcpref::FileError& e) {
    throw ToolError(fmt::format("Cannot read the log of spec {}: {}", id, e.what()));
  }
  if (tail.truncated) {
    return mcpref::tool_success(fmt::format(
        "[older lines omitted: a log excerpt is limited to {} bytes]\n{}", kMaxLogBytes, tail.text));
  }
  return mcpref::tool_success(tail.text);
}

Json tool_search(SpecStore& store, const ToolArgs& args) {
  std::string query = args.required_string("query");
  auto filter = status_filter_arg(args);
  std::string needle = ascii_lower(query);
  auto listing = store.load_all();
  Readiness readiness(listing.specs, store.archived_ids());
  Json specs = Json::array();
  for (const auto& s : listing.specs) {
    if (filter && !matches(s, *filter, readiness)) continue;
    bool hit = (s.title && ascii_lower(*s.title).find(needle) != std::string::npos) ||
               ascii_lower(s.doc.body).find(needle) != std::string::npos;
    if (hit) specs.push_back(spec_summary(s));
  }
  Json out = Json::object();
  out["query"] = query;
  std::size_t total = specs.size();
  out["specs"] = std::move(specs);
  out["total"] = total;
  if (!listing.problems.empty()) out["errors"] = problems_json(listing.problems);
  return pretty_result(out);
}

Json tool_verify(SpecStore& store, const ToolArgs& args) {
  std::string id = store.resolve(args.required_string("id"));
  Spec spec = store.load(id);
  Criteria c = count_criteria(spec.doc.body);
  Json out = Json::object();
  out["spec_id"] = spec.id;
  out["verified"] = c.unchecked == 0;
  out["criteria"] = Json{{"total", c.total}, {"checked", c.checked}, {"unchecked", c.unchecked}};
  out["unchecked_items"] = c.unchecked_items;
  if (c.total == 0) {
    out["verification_notes"] = "No acceptance criteria found";
  } else if (c.unchecked == 0) {
    out["verification_notes"] = "All acceptance criteria met";
  } else {
    out["verification_notes"] = fmt::format("{} criteria not yet checked", c.unchecked);
  }
  return pretty_result(out);
}

}  // namespace chant
