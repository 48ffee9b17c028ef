#include "note_index.hpp"

#include "notes_folder.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <thread>

using namespace meditation;
namespace fs = std::filesystem;

TEST_CASE("a scan lists notes by slug and leaves out what is not a note", "[index]") {
  NotesFolder f;
  f.write("b.md", "# Bee\nbuzz");
  f.write("a/deep.markdown", "# Deep\n");
  f.write("notes.txt", "not markdown");
  f.write(".hidden.md", "# Hidden");
  f.write(".git/x.md", "# In git");
  std::ofstream(f.base() / "outside.md") << "# Outside\nsecret";
  fs::create_symlink(f.base() / "outside.md", f.path() / "link.md");
  ScanLimits small;
  small.max_note_bytes = 100;
  f.write("big.md", std::string(200, 'x'));
  auto index = NoteIndex::scan(f.path(), small);
  REQUIRE(index->notes().size() == 2);
  CHECK(index->notes()[0].slug == "a/deep");
  CHECK(index->notes()[1].uri == "meditation://note/b");
  CHECK(index->notes()[1].title == "Bee");
  CHECK(index->skipped().size() == 2);  // the symlink and the big file, each with its reason
  CHECK(index->find_uri("meditation://note/b") != nullptr);
  CHECK(index->find_uri("meditation://note/../outside") == nullptr);
  CHECK(index->find_uri("meditation://note/link") == nullptr);
  CHECK(index->find_uri("other://note/b") == nullptr);
}

TEST_CASE("two files with one slug get distinct slugs, in path order", "[index]") {
  NotesFolder f;
  f.write("Morning Sit.md", "# One");
  f.write("morning-sit.md", "# Two");
  auto index = NoteIndex::scan(f.path(), {});
  REQUIRE(index->notes().size() == 2);
  CHECK(index->notes()[0].slug == "morning-sit");
  CHECK(index->notes()[0].title == "One");
  CHECK(index->notes()[1].slug == "morning-sit-2");
}

TEST_CASE("search is case-insensitive over titles and bodies, title matches first", "[index]") {
  NotesFolder f;
  f.write("a.md", "# Evening\nthe MORNING light");
  f.write("b.md", "# Morning Routine\ntea");
  f.write("c.md", "# Noon\nnothing");
  f.write("d.md", "# morning meditation\n");
  auto index = NoteIndex::scan(f.path(), {});
  auto r = index->search("Morning", 10);
  CHECK(r.total == 3);
  REQUIRE(r.hits.size() == 3);
  CHECK(r.hits[0]->slug == "b");
  CHECK(r.hits[1]->slug == "d");
  CHECK(r.hits[2]->slug == "a");
  auto limited = index->search("morning", 1);
  CHECK(limited.total == 3);
  CHECK(limited.hits.size() == 1);
  CHECK(index->search("absent words", 10).total == 0);
}

TEST_CASE("diff names added, changed and removed notes", "[index]") {
  NotesFolder f;
  f.write("keep.md", "# Keep");
  f.write("edit.md", "# Edit");
  f.write("gone.md", "# Gone");
  auto before = NoteIndex::scan(f.path(), {});
  f.write("edit.md", "# Edit\nmore");
  fs::remove(f.path() / "gone.md");
  f.write("new.md", "# New");
  auto after = NoteIndex::scan(f.path(), {});
  IndexDiff d = diff(*before, *after);
  CHECK(d.added == std::vector<std::string>{"new"});
  CHECK(d.changed == std::vector<std::string>{"edit"});
  CHECK(d.removed == std::vector<std::string>{"gone"});
}

TEST_CASE("the library refuses a missing folder and reads notes only inside its folder", "[library]") {
  CHECK_THROWS_WITH(NoteLibrary("/nonexistent/notes"), Catch::Contains("no such folder"));
  NotesFolder f;
  f.write("n.md", "# N\ntext");
  CHECK_THROWS_WITH(NoteLibrary(f.path() / "n.md"), Catch::Contains("not a folder"));
  NoteLibrary lib(f.path());
  const Note* n = lib.current()->find_uri("meditation://note/n");
  REQUIRE(n);
  CHECK(lib.read(*n) == "# N\ntext");
  // Replaced by a symlink to a file outside after the scan: refused, not followed.
  std::ofstream(f.base() / "secret.md") << "secret";
  fs::remove(f.path() / "n.md");
  fs::create_symlink(f.base() / "secret.md", f.path() / "n.md");
  CHECK_THROWS_AS(lib.read(*n), NoteGone);
  fs::remove(f.path() / "n.md");
  CHECK_THROWS_AS(lib.read(*n), NoteGone);
}

TEST_CASE("readers see the whole old index or the whole new one while rescans run", "[library]") {
  // Every scan holds either notes 0..99 (even rounds) or 0..199 (odd rounds): a reader that ever
  // counted anything else would have seen a half-built index.
  NotesFolder f;
  for (int i = 0; i < 100; ++i) f.write("n" + std::to_string(i) + ".md", "# Note\nbody");
  NoteLibrary lib(f.path());
  std::atomic<bool> stop{false};
  std::atomic<int> bad{0}, reads{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 2; ++t)
    readers.emplace_back([&] {
      while (!stop) {
        auto index = lib.current();
        std::size_t n = index->notes().size();
        if ((n != 100 && n != 200) || index->search("note", 1000).total != n) ++bad;
        ++reads;
      }
    });
  for (int round = 0; round < 6; ++round) {
    for (int i = 100; i < 200; ++i) {
      auto p = "n" + std::to_string(i) + ".md";
      if (round % 2 == 0) f.write(p, "# Note\nbody");
      else fs::remove(f.path() / p);
    }
    lib.rescan();
  }
  stop = true;
  for (auto& t : readers) t.join();
  CHECK(bad == 0);
  CHECK(reads > 0);
}

TEST_CASE("past the note count or the total size, further notes are skipped and said so", "[index]") {
  NotesFolder f;
  for (int i = 0; i < 5; ++i) f.write("n" + std::to_string(i) + ".md", std::string(100, 'x'));
  ScanLimits few;
  few.max_notes = 3;
  auto by_count = NoteIndex::scan(f.path(), few);
  REQUIRE(by_count->notes().size() == 3);
  CHECK(by_count->notes()[2].slug == "n2");  // the first three in path order, every time
  CHECK(by_count->skipped().size() == 2);
  ScanLimits small;
  small.max_total_bytes = 250;
  auto by_size = NoteIndex::scan(f.path(), small);
  CHECK(by_size->notes().size() == 2);
  REQUIRE(by_size->skipped().size() == 3);
  CHECK_THAT(by_size->skipped()[0], Catch::Contains("over the total limit of 250 bytes"));
}
