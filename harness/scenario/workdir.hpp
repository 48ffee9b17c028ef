#pragma once
// A scenario's private working directory: a fresh temporary folder filled with a copy of a fixture
// folder, removed when the scenario ends (so scenarios never see each other's files, even in parallel).
#include <string>

namespace mcpspec::scenario {

class Workdir {
 public:
  // Throws std::runtime_error when the folder cannot be made or filled.
  explicit Workdir(const std::string& copy_from);
  ~Workdir();
  Workdir(const Workdir&) = delete;
  Workdir& operator=(const Workdir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace mcpspec::scenario
