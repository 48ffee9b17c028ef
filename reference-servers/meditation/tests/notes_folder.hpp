// A temporary notes folder for the tests, removed at scope exit.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

class NotesFolder {
 public:
  NotesFolder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "meditation-test-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    base_ = pattern;
    std::filesystem::create_directory(base_ / "notes");
  }
  ~NotesFolder() {
    std::error_code ec;
    std::filesystem::remove_all(base_, ec);
  }
  NotesFolder(const NotesFolder&) = delete;
  NotesFolder& operator=(const NotesFolder&) = delete;

  // The notes folder; base() is its parent, a place for files outside it.
  std::filesystem::path path() const { return base_ / "notes"; }
  const std::filesystem::path& base() const { return base_; }
  void write(const std::string& relative, const std::string& text) const {
    auto p = path() / relative;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  }

 private:
  std::filesystem::path base_;
};
