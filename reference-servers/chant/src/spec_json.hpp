// JSON views of specs for tool output, and dependency readiness.
#pragma once

#include "spec.hpp"
#include "spec_store.hpp"

#include "mcpref/json.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace chant {

// {"id","title","status","type","depends_on","labels"} — the listing shape.
mcpref::Json spec_summary(const Spec& spec);
// Summary plus prompt, timestamps, file and the full body — the chant_spec_get shape.
mcpref::Json spec_detail(const Spec& spec, const ProjectPaths& paths);

// [{"file": ".chant/specs/x.md", "error": "..."}]
mcpref::Json problems_json(const std::vector<SpecStore::Problem>& problems);

// A dependency is met when the spec it names is completed, or archived (only completed specs
// can be archived). A dependency naming no spec at all is unmet.
class Readiness {
 public:
  Readiness(const std::vector<Spec>& active, const std::vector<std::string>& archived);
  std::vector<std::string> unmet(const Spec& spec) const;
  bool exists(const std::string& id) const;
  // Pending with every dependency met.
  bool ready(const Spec& spec) const;

 private:
  std::map<std::string, Status> active_;
  std::set<std::string> archived_;
};

}  // namespace chant
