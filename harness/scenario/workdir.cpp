#include "harness/scenario/workdir.hpp"

#include <stdlib.h>
#include <string.h>

#include <cerrno>
#include <filesystem>
#include <stdexcept>

namespace fs = std::filesystem;

namespace mcpspec::scenario {

Workdir::Workdir(const std::string& copy_from) {
  std::string tmpl = (fs::temp_directory_path() / "mcpspec-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error(std::string("cannot create a work folder: ") + strerror(errno));
  path_ = tmpl;
  std::error_code ec;
  fs::copy(copy_from, path_, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
  if (ec) {
    fs::remove_all(path_, ec);
    throw std::runtime_error("cannot copy " + copy_from + " into a work folder: " + ec.message());
  }
}

Workdir::~Workdir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

}  // namespace mcpspec::scenario
