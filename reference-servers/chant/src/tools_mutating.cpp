// The mutating tools: chant_spec_update, chant_add, chant_finalize, chant_resume, chant_cancel,
// chant_archive. Each one validates its arguments before touching any file, then does its
// read-modify-write under the project lock (see SpecStore).
#include "tools.hpp"

#include "clock.hpp"
#include "criteria.hpp"
#include "spec_id.hpp"
#include "tool_error.hpp"

#include "mcpref/tool_result.hpp"

#include <fmt/format.h>

namespace chant {

using mcpref::Json;

namespace {

// Bounds what one call can add; a spec file as a whole is capped by kMaxSpecBytes.
constexpr std::size_t kMaxDescriptionBytes = 1024 * 1024;

std::string_view trim_space(std::string_view s) {
  std::size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

bool has_control(std::string_view s) {
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return true;
  }
  return false;
}

}  // namespace

Json tool_spec_update(SpecStore& store, const ToolArgs& args) {
  std::string query = args.required_string("id");
  auto status_text = args.optional_string("status");
  auto output = args.optional_string("output");
  std::optional<Status> status;
  if (status_text) {
    status = parse_update_status(*status_text);
    if (!status) {
      throw ToolError(fmt::format("Invalid status '{}': expected one of {}", printable(*status_text),
                                  kUpdateStatuses));
    }
  }
  bool has_output = output && !output->empty();
  if (!status && !has_output) {
    throw ToolError("No updates specified: provide 'status' and/or a non-empty 'output'");
  }
  Spec written = store.update(query, [&](Spec& spec) {
    if (status) set_status(spec, *status, utc_timestamp_now());
    if (has_output) append_spec_output(spec, *output);
  });
  return mcpref::tool_success(fmt::format("Updated spec: {}", written.id));
}

Json tool_add(SpecStore& store, const ToolArgs& args) {
  std::string description = args.required_string("description");
  auto prompt = args.optional_string("prompt");
  if (description.size() > kMaxDescriptionBytes) {
    throw ToolError(fmt::format("Invalid parameter 'description': longer than {} bytes",
                                kMaxDescriptionBytes));
  }
  std::string_view text = trim_space(description);
  if (text.empty()) throw ToolError("Invalid parameter 'description': must not be empty");
  if (prompt) {
    std::string_view name = trim_space(*prompt);
    if (name.empty() || has_control(name) || name.size() > 200) {
      throw ToolError("Invalid parameter 'prompt': expected a template name (one line, 1-200 characters)");
    }
    prompt = std::string(name);
  }

  // The first line is the title; anything after it becomes the body under the title heading.
  SpecStore::NewSpec request;
  std::size_t nl = text.find('\n');
  request.title = std::string(trim_space(text.substr(0, nl)));
  if (nl != std::string_view::npos) request.details = std::string(trim_space(text.substr(nl + 1)));
  request.type = load_config(store.paths()).default_type;
  request.prompt = prompt;
  Spec created = store.create(request);
  return mcpref::tool_success(fmt::format("Created spec: {}", created.id));
}

Json tool_finalize(SpecStore& store, const ToolArgs& args) {
  std::string query = args.required_string("id");
  Spec written = store.update(query, [](Spec& spec) {
    if (spec.status != Status::InProgress && spec.status != Status::Completed &&
        spec.status != Status::Failed) {
      throw ToolError(fmt::format(
          "Cannot finalize spec {}: status is {} (only in_progress, completed or failed specs can "
          "be finalized)",
          spec.id, to_string(spec.status)));
    }
    Criteria c = count_criteria(spec.doc.body);
    if (c.unchecked > 0) {
      std::string items;
      for (const auto& item : c.unchecked_items) {
        if (!items.empty()) items += "; ";
        items += item;
      }
      throw ToolError(fmt::format("Cannot finalize spec {}: {} of {} acceptance criteria unchecked: {}",
                                  spec.id, c.unchecked, c.total, items));
    }
    set_status(spec, Status::Completed, utc_timestamp_now());
  });
  return mcpref::tool_success(fmt::format("Finalized spec: {}", written.id));
}

Json tool_resume(SpecStore& store, const ToolArgs& args) {
  std::string query = args.required_string("id");
  Spec written = store.update(query, [](Spec& spec) {
    if (spec.status != Status::Failed && spec.status != Status::InProgress) {
      throw ToolError(fmt::format(
          "Cannot resume spec {}: status is {} (only failed or in_progress specs can be resumed)",
          spec.id, to_string(spec.status)));
    }
    set_status(spec, Status::Pending, utc_timestamp_now());
  });
  return mcpref::tool_success(fmt::format("Resumed spec: {} (status is now pending)", written.id));
}

Json tool_cancel(SpecStore& store, const ToolArgs& args) {
  std::string query = args.required_string("id");
  Spec written = store.update(query, [](Spec& spec) {
    if (spec.status == Status::Cancelled) {
      throw ToolError(fmt::format("Spec {} is already cancelled", spec.id));
    }
    set_status(spec, Status::Cancelled, utc_timestamp_now());
  });
  return mcpref::tool_success(fmt::format("Cancelled spec: {}", written.id));
}

Json tool_archive(SpecStore& store, const ToolArgs& args) {
  std::string query = args.required_string("id");
  std::string id;
  auto to = store.archive(query, [&](const Spec& spec) {
    id = spec.id;
    if (spec.status != Status::Completed) {
      throw ToolError(fmt::format(
          "Cannot archive spec {}: status is {} (only completed specs can be archived)", spec.id,
          to_string(spec.status)));
    }
  });
  return mcpref::tool_success(fmt::format("Archived spec: {} -> {}", id, store.paths().display(to)));
}

}  // namespace chant
