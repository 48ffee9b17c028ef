// Cross-check: our schemas against the official schema of the same version, message by message,
// over the examples of the specification pages, literal messages of our scenarios and mutations of
// the examples. Every disagreement must be explained by crosscheck-allowlist.json, and every entry
// there must still be needed.
#include "harness/protocol/schema_registry.hpp"
#include "tests/protocol/schema_corpus.hpp"

#include <catch2/catch.hpp>

#include <iostream>
#include <map>
#include <set>

namespace {

using mcpspec::protocol::SchemaRegistry;
using mcpspec::protocol::ValidationOutcome;
using namespace mcpspec::test;

struct AllowEntry {
  std::string id;
  std::vector<std::string> versions, sources, pages, variants;
  std::string ours, official;
  std::size_t used = 0;
};

std::vector<std::string> patterns(const json& entry, const char* key) {
  auto it = entry.find(key);
  if (it == entry.end()) return {"*"};
  if (it->is_string()) return {it->get<std::string>()};
  return it->get<std::vector<std::string>>();
}

bool any_match(const std::vector<std::string>& globs, const std::string& text) {
  for (const auto& g : globs) {
    if (glob_match(g, text)) return true;
  }
  return false;
}

struct AllowList {
  std::vector<AllowEntry> differences;
  std::vector<AllowEntry> invalid_examples;

  static AllowList load() {
    json doc = json::parse(read_text(source_dir() + "/tests/protocol/crosscheck-allowlist.json"));
    AllowList out;
    auto read = [](const json& e) {
      AllowEntry a;
      a.id = e.at("id").get<std::string>();
      REQUIRE_FALSE(e.value("reason", std::string()).empty());  // every entry says why
      a.versions = patterns(e, "versions");
      a.sources = patterns(e, "source");
      a.pages = patterns(e, "where");
      a.variants = patterns(e, "variant");
      a.ours = e.value("ours", std::string("*"));
      a.official = e.value("official", std::string("*"));
      return a;
    };
    for (const auto& e : doc.at("differences")) out.differences.push_back(read(e));
    for (const auto& e : doc.at("invalid_examples")) out.invalid_examples.push_back(read(e));
    return out;
  }

  static AllowEntry* find(std::vector<AllowEntry>& entries, const CorpusItem& item, bool ours_valid, bool official_valid) {
    for (auto& e : entries) {
      if (any_match(e.versions, item.version) && any_match(e.sources, item.source) && any_match(e.pages, item.where) &&
          any_match(e.variants, item.variant) && glob_match(e.ours, ours_valid ? "valid" : "invalid") &&
          glob_match(e.official, official_valid ? "valid" : "invalid")) {
        ++e.used;
        return &e;
      }
    }
    return nullptr;
  }
};

std::string first_issues(const ValidationOutcome& o) {
  std::string out = o.definition.empty() ? "" : "[" + o.definition + "] ";
  for (std::size_t i = 0; i < o.issues.size() && i < 2; ++i) {
    out += (i ? "; " : "") + (o.issues[i].pointer.empty() ? std::string("/") : o.issues[i].pointer) + ": " +
           o.issues[i].message;
  }
  return out;
}

struct Tally {
  std::size_t checked = 0, agree = 0, disagree = 0, allowed = 0;
};

}  // namespace

TEST_CASE("our schemas agree with the official schemas on examples, scenarios and mutations", "[schema][crosscheck]") {
  const auto& ours = SchemaRegistry::builtin();
  AllowList allow = AllowList::load();
  std::vector<std::string> unexplained;
  std::vector<std::string> undocumented_invalid_examples;
  std::map<std::string, Tally> tallies;
  const auto scenarios = scenario_items(ours);

  for (const auto& version : ours.versions()) {
    auto official = official_registry(version);
    Tally& tally = tallies[version];

    auto compare = [&](const CorpusItem& item) {
      auto a = ours.validate(item.message, version, item.sender, item.answered);
      auto b = official->validate(item.message, version, item.sender, item.answered);
      ++tally.checked;
      const std::string label = version + " " + item.source + " " + item.where + " [" + item.variant + "] " +
                                item.message.dump().substr(0, 160);
      if (item.variant == "original" && item.source == "example" && !a.valid &&
          !AllowList::find(allow.invalid_examples, item, a.valid, b.valid)) {
        undocumented_invalid_examples.push_back(label + "\n    ours: " + first_issues(a));
      }
      if (a.valid == b.valid) {
        ++tally.agree;
        return;
      }
      ++tally.disagree;
      if (AllowList::find(allow.differences, item, a.valid, b.valid)) {
        ++tally.allowed;
        return;
      }
      unexplained.push_back(label + "\n    ours: " + (a.valid ? "valid" : "invalid " + first_issues(a)) +
                            "\n    official: " + (b.valid ? "valid" : "invalid " + first_issues(b)));
    };

    for (const auto& item : example_items(ours, version)) {
      compare(item);
      for (auto& [name, mutated] : variants(item.message)) {
        CorpusItem variant = item;
        variant.variant = name;
        variant.message = std::move(mutated);
        compare(variant);
      }
    }
    for (const auto& item : scenarios) {
      if (item.version == version) compare(item);
    }
  }

  Tally total;
  std::cout << "schema cross-check (ours vs official), per version:\n";
  for (const auto& [version, t] : tallies) {
    std::cout << "  " << version << ": " << t.checked << " checked, " << t.agree << " agree, " << t.disagree
              << " disagree (" << t.allowed << " allowed by the allow-list)\n";
    total.checked += t.checked;
    total.agree += t.agree;
    total.disagree += t.disagree;
    total.allowed += t.allowed;
  }
  std::cout << "  total: " << total.checked << " checked, " << total.agree << " agree, " << total.disagree
            << " disagree, " << total.allowed << " allowed, " << unexplained.size() << " unexplained; "
            << scenarios.size() << " scenario messages included\n";

  for (const auto& e : allow.differences) {
    std::cout << "  allow-list '" << e.id << "': " << e.used << " disagreements explained\n";
  }

  for (const auto& line : unexplained) UNSCOPED_INFO(line);
  CHECK(unexplained.empty());
  for (const auto& line : undocumented_invalid_examples) UNSCOPED_INFO(line);
  CHECK(undocumented_invalid_examples.empty());
  for (const auto* list : {&allow.differences, &allow.invalid_examples}) {
    for (const auto& e : *list) {
      INFO("allow-list entry '" << e.id << "' no longer matches anything: remove it");
      CHECK(e.used > 0);
    }
  }
  // The corpus must actually exercise something: a silent empty corpus proves nothing.
  CHECK(total.checked > 1000);
}
