#include "note_index.hpp"

#include "mcpref/atomic_file.hpp"
#include "note_text.hpp"
#include "slug.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>

namespace fs = std::filesystem;

namespace meditation {

namespace {

bool hidden(const fs::path& p) {
  std::string name = p.filename().string();
  return !name.empty() && name[0] == '.';
}

// True when `inner` (canonical) is `outer` (canonical) or below it.
bool within(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i)
    if (i == inner.end() || *i != *o) return false;
  return true;
}

}  // namespace

std::shared_ptr<const NoteIndex> NoteIndex::scan(const fs::path& root, const ScanLimits& limits) {
  auto index = std::make_shared<NoteIndex>();
  std::error_code ec;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot read the notes folder {}: {}", root.string(), ec.message()));
  std::vector<std::pair<fs::path, std::uintmax_t>> files;
  std::uintmax_t total = 0;
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) {
      index->skipped_.push_back(fmt::format("{}: {}", it->path().string(), ec.message()));
      ec.clear();
      continue;
    }
    const fs::directory_entry& e = *it;
    if (hidden(e.path())) {
      if (e.is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (e.is_symlink(ec)) {
      if (is_note_file(e.path()))
        index->skipped_.push_back(fs::relative(e.path(), root).string() + ": a symbolic link (not followed)");
      continue;
    }
    if (e.is_directory(ec)) {
      if (it.depth() + 1 >= limits.max_depth) {
        it.disable_recursion_pending();
        index->skipped_.push_back(fs::relative(e.path(), root).string() +
                                  fmt::format(": deeper than {} folder levels", limits.max_depth));
      }
      continue;
    }
    if (!e.is_regular_file(ec) || !is_note_file(e.path())) continue;
    std::uintmax_t size = e.file_size(ec);
    if (ec) continue;
    fs::path rel = fs::relative(e.path(), root);
    if (size > limits.max_note_bytes) {
      index->skipped_.push_back(fmt::format("{}: {} bytes, over the {}-byte limit", rel.string(), size, limits.max_note_bytes));
      continue;
    }
    files.emplace_back(rel, size);
  }
  // Path order decides which of two notes with the same slug gets the plain one, and which notes
  // are left out past the limits (the same ones every time, whatever order the folder lists).
  std::sort(files.begin(), files.end());
  std::size_t kept = 0;
  for (const auto& [rel, size] : files) {
    if (kept >= limits.max_notes)
      index->skipped_.push_back(fmt::format("{}: over the limit of {} notes", rel.string(), limits.max_notes));
    else if (total + size > limits.max_total_bytes)
      index->skipped_.push_back(
          fmt::format("{}: over the total limit of {} bytes of notes", rel.string(), limits.max_total_bytes));
    else {
      files[kept++] = {rel, size};
      total += size;
    }
  }
  files.resize(kept);
  std::set<std::string> taken;
  for (const auto& [rel, size] : files) {
    std::string text;
    try {
      text = mcpref::read_file_limited(root / rel, limits.max_note_bytes);
    } catch (const std::exception& e) {
      index->skipped_.push_back(fmt::format("{}: {}", rel.string(), e.what()));
      continue;
    }
    Note n;
    n.slug = slug_for(rel);
    for (int k = 2; taken.count(n.slug); ++k) n.slug = slug_for(rel) + "-" + std::to_string(k);
    taken.insert(n.slug);
    n.uri = uri_for(n.slug);
    NoteSummary summary = summarize_note(text, rel.stem().string());
    n.title = summary.title;
    n.description = summary.description;
    n.relative_path = rel;
    n.size = text.size();
    n.content_hash = std::hash<std::string>{}(text);
    n.folded = fold_case(n.title) + "\n" + fold_case(text);
    index->notes_.push_back(std::move(n));
  }
  std::sort(index->notes_.begin(), index->notes_.end(), [](const Note& a, const Note& b) { return a.slug < b.slug; });
  for (std::size_t i = 0; i < index->notes_.size(); ++i) index->by_slug_[index->notes_[i].slug] = i;
  return index;
}

const Note* NoteIndex::find_uri(std::string_view uri) const {
  if (uri.substr(0, kUriPrefix.size()) != kUriPrefix) return nullptr;
  auto it = by_slug_.find(uri.substr(kUriPrefix.size()));
  return it == by_slug_.end() ? nullptr : &notes_[it->second];
}

NoteIndex::SearchResult NoteIndex::search(std::string_view query, std::size_t limit) const {
  std::string q = fold_case(query);
  std::boyer_moore_horspool_searcher finder(q.begin(), q.end());
  std::vector<const Note*> in_title, in_text;
  for (const Note& n : notes_) {
    auto title_end = n.folded.begin() + static_cast<std::ptrdiff_t>(n.folded.find('\n'));
    auto hit = std::search(n.folded.begin(), n.folded.end(), finder);
    if (hit == n.folded.end()) continue;
    (hit < title_end ? in_title : in_text).push_back(&n);
  }
  SearchResult r;
  r.total = in_title.size() + in_text.size();
  for (const auto* group : {&in_title, &in_text})
    for (const Note* n : *group)
      if (r.hits.size() < limit) r.hits.push_back(n);
  return r;
}

IndexDiff diff(const NoteIndex& before, const NoteIndex& after) {
  IndexDiff d;
  for (const Note& n : after.notes()) {
    const Note* old = before.find_uri(n.uri);
    if (!old) d.added.push_back(n.slug);
    else if (old->content_hash != n.content_hash || old->size != n.size || old->relative_path != n.relative_path)
      d.changed.push_back(n.slug);
  }
  for (const Note& n : before.notes())
    if (!after.find_uri(n.uri)) d.removed.push_back(n.slug);
  return d;
}

NoteLibrary::NoteLibrary(const fs::path& root, ScanLimits limits) : limits_(limits) {
  std::error_code ec;
  if (!fs::is_directory(root, ec))
    throw std::runtime_error(fmt::format("notes folder {}: {}", root.string(),
                                         fs::exists(root, ec) ? "not a folder" : "no such folder"));
  root_ = fs::canonical(root, ec);
  if (ec) throw std::runtime_error(fmt::format("notes folder {}: {}", root.string(), ec.message()));
  index_ = NoteIndex::scan(root_, limits_);
}

std::shared_ptr<const NoteIndex> NoteLibrary::current() const {
  std::lock_guard lock(mutex_);
  return index_;
}

IndexDiff NoteLibrary::rescan() {
  auto fresh = NoteIndex::scan(root_, limits_);
  std::shared_ptr<const NoteIndex> old;
  {
    std::lock_guard lock(mutex_);
    old = index_;
    index_ = fresh;
  }
  return diff(*old, *fresh);
}

std::string NoteLibrary::read(const Note& note) const {
  fs::path path = root_ / note.relative_path;
  std::error_code ec;
  fs::path real = fs::canonical(path, ec);
  if (ec) throw NoteGone(fmt::format("{}: {}", note.relative_path.string(), ec.message()));
  if (!within(real, root_)) throw NoteGone(note.relative_path.string() + ": now outside the notes folder");
  try {
    return mcpref::read_file_limited(path, limits_.max_note_bytes);
  } catch (const std::exception& e) {
    throw NoteGone(fmt::format("{}: {}", note.relative_path.string(), e.what()));
  }
}

}  // namespace meditation
