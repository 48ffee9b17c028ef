#include "spec_store.hpp"

#include "clock.hpp"
#include "output_section.hpp"
#include "spec_id.hpp"
#include "tool_error.hpp"

#include "mcpref/atomic_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <random>
#include <sys/stat.h>

namespace chant {

namespace fs = std::filesystem;

SpecStore::SpecStore(ProjectPaths paths, std::chrono::milliseconds lock_timeout)
    : paths_(std::move(paths)), lock_timeout_(lock_timeout) {}

fs::path SpecStore::spec_file(const std::string& id) const { return paths_.specs / (id + ".md"); }
fs::path SpecStore::archived_file(const std::string& id) const {
  return paths_.archive / (id + ".md");
}
fs::path SpecStore::log_file(const std::string& id) const { return paths_.logs / (id + ".log"); }

std::vector<std::string> SpecStore::names_in(const fs::path& dir,
                                             std::vector<Problem>* problems) const {
  std::vector<std::string> ids;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) {
    if (problems && ec != std::errc::no_such_file_or_directory) {
      problems->push_back({paths_.display(dir), "cannot list directory: " + ec.message()});
    }
    return ids;
  }
  for (const auto& entry : it) {
    std::string name = entry.path().filename().string();
    // Hidden files include our own temporary files mid-write.
    if (name.empty() || name.front() == '.') continue;
    if (name.size() <= 3 || name.compare(name.size() - 3, 3, ".md") != 0) continue;
    std::string id = name.substr(0, name.size() - 3);
    std::string shown = paths_.display(entry.path());
    struct stat st {};
    if (::lstat(entry.path().c_str(), &st) != 0) continue;
    if (S_ISLNK(st.st_mode)) {
      if (problems) problems->push_back({shown, "is a symbolic link; chant only reads regular files"});
      continue;
    }
    if (!S_ISREG(st.st_mode)) {
      if (problems) problems->push_back({shown, "is not a regular file"});
      continue;
    }
    if (auto why = id_problem(id)) {
      if (problems) problems->push_back({shown, "file name is not a valid spec id: " + *why});
      continue;
    }
    ids.push_back(std::move(id));
  }
  std::sort(ids.begin(), ids.end(), id_less);
  return ids;
}

std::vector<std::string> SpecStore::active_ids() const { return names_in(paths_.specs, nullptr); }
std::vector<std::string> SpecStore::archived_ids() const { return names_in(paths_.archive, nullptr); }

SpecStore::Listing SpecStore::load_all() const {
  Listing out;
  for (const auto& id : names_in(paths_.specs, &out.problems)) {
    fs::path file = spec_file(id);
    try {
      out.specs.push_back(parse_spec(id, mcpref::read_file_limited(file, kMaxSpecBytes)));
    } catch (const FrontMatterError& e) {
      out.problems.push_back({paths_.display(file), e.what()});
    } catch (const mcpref::FileError& e) {
      // Vanished between listing and reading (archived by another process): not a problem.
      std::error_code ec;
      if (fs::exists(file, ec)) out.problems.push_back({paths_.display(file), e.what()});
    }
  }
  std::sort(out.problems.begin(), out.problems.end(),
            [](const Problem& a, const Problem& b) { return a.file < b.file; });
  return out;
}

std::string SpecStore::resolve(std::string_view query) const {
  require_safe_id(query);
  IdMatch m = match_id(query, active_ids());
  switch (m.kind) {
    case IdMatch::Kind::Unique: return m.id;
    case IdMatch::Kind::None: throw ToolError(fmt::format("Spec not found: '{}'", query));
    case IdMatch::Kind::Ambiguous: break;
  }
  constexpr std::size_t shown = 10;
  std::string names;
  for (std::size_t i = 0; i < m.candidates.size() && i < shown; ++i) {
    if (i) names += ", ";
    names += m.candidates[i];
  }
  if (m.candidates.size() > shown) names += fmt::format(", and {} more", m.candidates.size() - shown);
  throw ToolError(fmt::format("Ambiguous spec id '{}' matches {} specs: {}", query,
                              m.candidates.size(), names));
}

std::string SpecStore::read_text(const std::string& id) const {
  fs::path file = spec_file(id);
  try {
    return mcpref::read_file_limited(file, kMaxSpecBytes);
  } catch (const mcpref::FileError& e) {
    throw ToolError(fmt::format("Spec {} cannot be read: {}", id, e.what()));
  }
}

Spec SpecStore::load(const std::string& id) const {
  std::string text = read_text(id);
  try {
    return parse_spec(id, text);
  } catch (const FrontMatterError& e) {
    throw ToolError(fmt::format("Spec {} cannot be read: {}: {}", id,
                                paths_.display(spec_file(id)), e.what()));
  }
}

mcpref::FileLock SpecStore::lock() const {
  try {
    return mcpref::FileLock::acquire(paths_.lock, lock_timeout_);
  } catch (const mcpref::LockTimeout& e) {
    throw ToolError(fmt::format("Project is busy: {}", e.what()));
  }
}

Spec SpecStore::update(std::string_view query, const std::function<void(Spec&)>& mutate) {
  auto held = lock();
  Spec spec = load(resolve(query));
  mutate(spec);
  spec.doc.front_matter.set_scalar(key::updated, utc_timestamp_now());
  std::string text = spec.doc.render();
  if (text.size() > kMaxSpecBytes) {
    throw ToolError(fmt::format("Cannot update spec {}: the file would be {} bytes, over the {}-byte "
                                "limit for a spec",
                                spec.id, text.size(), kMaxSpecBytes));
  }
  // Parsed before writing: chant never writes a spec it could not read back.
  Spec written = parse_spec(spec.id, text);
  mcpref::write_file_atomic(spec_file(spec.id), text);
  return written;
}

Spec SpecStore::create(const NewSpec& request) {
  auto held = lock();
  std::vector<std::string> taken = active_ids();
  for (auto& id : archived_ids()) taken.push_back(std::move(id));

  std::string now = utc_timestamp_now();
  std::random_device seed;
  std::mt19937 random(seed());
  for (int attempt = 0; attempt < 20; ++attempt) {
    std::string id = generate_id(local_date_today(), taken, random);
    SpecDocument doc;
    doc.has_front_matter = true;
    FrontMatter& fm = doc.front_matter;
    fm.set_scalar(key::id, id);
    fm.set_scalar(key::title, request.title);
    fm.set_scalar(key::status, "pending");
    fm.set_scalar(key::type, request.type);
    if (request.prompt) fm.set_scalar(key::prompt, *request.prompt);
    fm.set_list(key::depends_on, request.depends_on);
    fm.set_list(key::labels, request.labels);
    fm.set_scalar(key::created, now);
    fm.set_scalar(key::updated, now);
    doc.body = "\n# " + request.title + "\n";
    if (!request.details.empty()) {
      doc.body += "\n" + request.details;
      if (doc.body.back() != '\n') doc.body += '\n';
    }
    std::string text = doc.render();
    if (text.size() > kMaxSpecBytes) {
      throw ToolError(fmt::format("Cannot create spec: it would be {} bytes, over the {}-byte limit",
                                  text.size(), kMaxSpecBytes));
    }
    Spec created = parse_spec(id, text);
    if (mcpref::create_file_atomic(spec_file(id), text)) return created;
    taken.push_back(id);  // same id created meanwhile (outside the lock): try the next
  }
  throw ToolError("Could not allocate a new spec id after 20 attempts");
}

fs::path SpecStore::archive(std::string_view query, const std::function<void(const Spec&)>& check) {
  auto held = lock();
  Spec spec = load(resolve(query));
  check(spec);
  fs::path to = archived_file(spec.id);
  std::error_code ec;
  if (fs::exists(to, ec)) {
    throw ToolError(fmt::format("Cannot archive spec {}: {} already exists", spec.id,
                                paths_.display(to)));
  }
  fs::create_directories(paths_.archive);
  mcpref::move_file_durable(spec_file(spec.id), to);
  return to;
}

void set_status(Spec& spec, Status status, const std::string& now) {
  spec.status = status;
  spec.doc.front_matter.set_scalar(key::status, std::string(to_string(status)));
  if (status == Status::Completed) {
    spec.completed_at = now;
    spec.doc.front_matter.set_scalar(key::completed_at, now);
  } else if (spec.doc.front_matter.has(key::completed_at)) {
    spec.completed_at.reset();
    spec.doc.front_matter.erase(key::completed_at);
  }
}

void append_spec_output(Spec& spec, std::string_view output) {
  spec.doc.body = append_output(spec.doc.body, output);
}

}  // namespace chant
