#include "spec_directory.hpp"

#include "mcpref/atomic_file.hpp"

#include <system_error>

namespace speckit {

namespace fs = std::filesystem;

std::optional<std::string> spec_directory_problem(const std::string& raw) {
  if (raw.empty()) return "spec_directory is empty; give the absolute path of the specification directory";
  if (raw.find('\0') != std::string::npos) return "spec_directory contains a NUL byte";
  fs::path p(raw);
  if (!p.is_absolute()) return "spec_directory must be an absolute path, got '" + raw + "'";
  for (const auto& part : p.relative_path()) {
    if (part == "..") return "spec_directory must not contain '..', got '" + raw + "'";
    if (part == ".") return "spec_directory must not contain '.' parts, got '" + raw + "'";
  }
  if (p == p.root_path()) return "spec_directory must not be the root directory";
  return std::nullopt;
}

bool SpecDirectory::exists() const {
  std::error_code ec;
  return fs::is_directory(path_, ec);
}

std::optional<std::string> SpecDirectory::read(const std::string& name) const {
  std::error_code ec;
  auto status = fs::symlink_status(path_ / name, ec);
  if (ec || status.type() == fs::file_type::not_found) return std::nullopt;
  return mcpref::read_file_limited(path_ / name, kMaxDocumentBytes);
}

void SpecDirectory::write(const std::string& name, const std::string& text) const {
  std::error_code ec;
  fs::create_directories(path_, ec);
  if (ec) throw mcpref::FileError("cannot create " + path_.string() + ": " + ec.message());
  if (!fs::is_directory(path_, ec)) throw mcpref::FileError(path_.string() + " exists and is not a directory");
  mcpref::write_file_atomic(path_ / name, text);
}

}  // namespace speckit
