#include "vision_document.hpp"

#include <fmt/format.h>

#include <set>

#include "domain_catalog.hpp"
#include "markdown.hpp"
#include "text_utils.hpp"

namespace clariad {

namespace {

constexpr std::size_t kMaxDomains = 4;
constexpr std::size_t kMaxGoals = 8;
constexpr std::size_t kMaxRows = 8;

std::vector<std::string> strings_of(const Json& facts, const char* key) {
  std::vector<std::string> out;
  if (facts.contains(key) && facts[key].is_array()) {
    for (const Json& v : facts[key]) {
      if (v.is_string()) out.push_back(v.get<std::string>());
    }
  }
  return out;
}

// Lists what appears only in `now` (added) or only in `before` (removed), keeping order.
void describe_changes(std::string& md, const char* what, const std::vector<std::string>& before,
                      const std::vector<std::string>& now) {
  const std::set<std::string> old_set(before.begin(), before.end());
  const std::set<std::string> new_set(now.begin(), now.end());
  std::vector<std::string> added, removed;
  for (const auto& s : now) {
    if (!old_set.count(s)) added.push_back(s);
  }
  for (const auto& s : before) {
    if (!new_set.count(s)) removed.push_back(s);
  }
  if (added.empty() && removed.empty()) {
    md += fmt::format("- {}: unchanged\n", what);
    return;
  }
  for (const auto& s : added) md += fmt::format("- {} added: {}\n", what, md_inline(s, 300));
  for (const auto& s : removed) md += fmt::format("- {} removed: {}\n", what, md_inline(s, 300));
}

// A domain exclusion is dropped when the description asks for that very thing, e.g. "time
// tracking" mentioned while the task domain would exclude "Time tracking and invoicing".
bool description_requests(const std::string& normalized_description, std::string_view item) {
  static const std::set<std::string, std::less<>> kWeak = {"with", "from", "that", "this", "than", "more",
                                                           "into", "every", "their", "first", "release"};
  std::vector<std::string> content;
  const std::string norm = normalize_for_matching(item);  // " word word ... "
  std::size_t begin = 1;
  for (std::size_t end = norm.find(' ', begin); end != std::string::npos; end = norm.find(' ', begin)) {
    if (end > begin) content.push_back(norm.substr(begin, end - begin));
    begin = end + 1;
  }
  auto is_content = [&](const std::string& w) { return w.size() >= 4 && !kWeak.count(w); };
  std::size_t content_words = 0;
  for (std::size_t i = 0; i < content.size(); ++i) {
    if (!is_content(content[i])) continue;
    ++content_words;
    if (i + 1 < content.size() && is_content(content[i + 1]) &&
        mentions(normalized_description, content[i] + " " + content[i + 1])) {
      return true;
    }
  }
  if (content_words == 1) {
    for (const std::string& w : content) {
      if (is_content(w) && mentions(normalized_description, w)) return true;
    }
  }
  return false;
}

}  // namespace

std::optional<Json> latest_facts(const std::vector<ContextEntry>& context, const std::string& tool) {
  for (auto it = context.rbegin(); it != context.rend(); ++it) {
    if (it->tool == tool && it->facts.is_object()) return it->facts;
  }
  return std::nullopt;
}

GeneratedDocument build_vision_document(const VisionInput& input, const std::vector<ContextEntry>& context) {
  const std::string description = collapse_whitespace(input.description);
  const std::string normalized = normalize_for_matching(description);
  const std::vector<const Domain*> domains = match_domains(description, kMaxDomains);
  const Domain& general = general_domain();
  const Domain& lead = domains.empty() ? general : *domains.front();

  const std::vector<std::string> stated = stated_capabilities(description);
  const std::string title = [&] {
    std::string t = derive_title(description);
    if (t.find(' ') != std::string::npos || t == "Untitled Project") return t;
    // A one-word title ("Platform", "Tool") says nothing: qualify it with the lead domain,
    // or else with the first capability the description states.
    if (!domains.empty() && !domains.front()->noun.empty()) return std::string(domains.front()->noun) + " " + t;
    if (!stated.empty()) return t + ": " + title_case(shorten(stated.front(), 60));
    return t;
  }();
  const std::optional<std::string> stated_audience = find_audience(description);
  const std::string audience = stated_audience ? *stated_audience : std::string(lead.audience);

  const std::optional<Json> previous = latest_facts(context, kVisionTool);
  const int revision = previous ? previous->value("revision", 0) + 1 : 1;

  // Vision statement from the classic "For ... who ..., X is ... that ... Unlike ..." frame.
  const Domain& second = domains.size() > 1 ? *domains[1] : lead;
  const std::string vision_statement =
      fmt::format("For {} who {}, {} is {} that {}. Unlike {}, it {}.", md_inline(audience, 200), lead.need, title,
                  lead.category, lead.benefit, lead.alternative, second.differentiator);

  std::vector<std::string> goals;
  for (const Domain* d : domains) {
    for (auto g : d->goals) goals.emplace_back(g);
  }
  if (!stated.empty()) goals.push_back("Deliver the capabilities stated in the project description (section 5.1)");
  for (auto g : general.goals) goals.emplace_back(g);
  if (goals.size() > kMaxGoals) goals.resize(kMaxGoals);

  std::vector<std::string> in_scope_domain;
  for (const Domain* d : domains) {
    for (auto s : d->in_scope) in_scope_domain.emplace_back(s);
  }
  if (stated.empty() && in_scope_domain.empty()) {
    in_scope_domain = {"The core workflow described in the problem statement", "User sign-in and basic administration",
                       "A feedback channel for early users"};
  }

  std::vector<std::string> out_of_scope;
  for (const Domain* d : domains) {
    for (auto s : d->out_of_scope) {
      if (!description_requests(normalized, s)) out_of_scope.emplace_back(s);
    }
  }
  for (const ScopeExclusion& ex : default_exclusions()) {
    bool requested = false;
    for (auto term : ex.unless) requested = requested || mentions(normalized, term);
    if (!requested) out_of_scope.emplace_back(ex.text);
  }

  std::string md;
  md += fmt::format("# Vision & Scope: {}\n\n", title);
  std::string domain_labels;
  for (const Domain* d : domains) {
    if (!domain_labels.empty()) domain_labels += "; ";
    domain_labels += d->label;
  }
  md += md_table({"Item", "Value"},
                 {{"Conversation", input.conversation_id ? *input.conversation_id : "none (stand-alone document)"},
                  {"Revision", previous ? fmt::format("{} (supersedes revision {})", revision, revision - 1)
                                        : std::string("1")},
                  {"Recognised domains", domain_labels.empty() ? "none (general template)" : domain_labels},
                  {"Generated by", "vision_agent (deterministic; no language model)"}});

  md += "\n## 1. Problem Statement\n\n";
  md += "> " + description + "\n\n";  // already one line; bounded by the parameter limit
  md += "The project answers these problems:\n\n";
  if (domains.empty()) {
    md += "- " + std::string(general.problem) + "\n";
  } else {
    for (const Domain* d : domains) md += fmt::format("- **{}:** {}\n", d->label, d->problem);
  }

  md += "\n## 2. Vision Statement\n\n" + vision_statement + "\n";

  md += "\n## 3. Stakeholders\n\n";
  std::vector<std::vector<std::string>> stakeholder_rows;
  stakeholder_rows.push_back({fmt::format("End users ({})", audience), "Solve the problem above with little effort"});
  stakeholder_rows.push_back({std::string(general.stakeholders[0].name), std::string(general.stakeholders[0].interest)});
  for (const Domain* d : domains) {
    for (const Stakeholder& s : d->stakeholders) stakeholder_rows.push_back({std::string(s.name), std::string(s.interest)});
  }
  for (std::size_t i = 1; i < general.stakeholders.size(); ++i) {
    stakeholder_rows.push_back({std::string(general.stakeholders[i].name), std::string(general.stakeholders[i].interest)});
  }
  md += md_table({"Stakeholder", "Interest"}, stakeholder_rows);

  md += "\n## 4. Business Goals\n\n";
  std::vector<std::vector<std::string>> goal_rows;
  for (std::size_t i = 0; i < goals.size(); ++i) goal_rows.push_back({fmt::format("G{}", i + 1), goals[i]});
  md += md_table({"ID", "Goal"}, goal_rows);

  md += "\n## 5. Scope\n\n### 5.1 In Scope (first release)\n\n";
  if (!stated.empty()) md += "Stated in the project description:\n\n" + md_bullets(stated);
  if (!stated.empty() && !in_scope_domain.empty()) md += "\nExpected for this kind of product:\n\n";
  if (!in_scope_domain.empty()) md += md_bullets(in_scope_domain);
  md += "\n### 5.2 Out of Scope\n\n" + md_bullets(out_of_scope);

  md += "\n## 6. Success Metrics\n\n";
  std::vector<std::vector<std::string>> metric_rows;
  std::vector<std::string> metric_names;
  auto add_metric = [&](const Metric& m) {
    if (metric_rows.size() >= kMaxRows) return;
    metric_rows.push_back({fmt::format("M{}", metric_rows.size() + 1), std::string(m.name), std::string(m.target)});
    metric_names.emplace_back(m.name);
  };
  for (const Domain* d : domains) {
    for (const Metric& m : d->metrics) add_metric(m);
  }
  for (const Metric& m : general.metrics) add_metric(m);
  md += md_table({"ID", "Metric", "Target"}, metric_rows);

  md += "\n## 7. Risks\n\n";
  std::vector<std::vector<std::string>> risk_rows;
  auto add_risk = [&](const Risk& r) {
    if (risk_rows.size() >= kMaxRows) return;
    risk_rows.push_back({fmt::format("K{}", risk_rows.size() + 1), std::string(r.risk), std::string(r.likelihood),
                         std::string(r.impact), std::string(r.mitigation)});
  };
  for (const Domain* d : domains) add_risk(d->risks.front());
  for (const Risk& r : general.risks) add_risk(r);
  for (const Domain* d : domains) {
    for (std::size_t i = 1; i < d->risks.size(); ++i) add_risk(d->risks[i]);
  }
  md += md_table({"ID", "Risk", "Likelihood", "Impact", "Mitigation"}, risk_rows);

  md += "\n## 8. Assumptions and Open Questions\n\n";
  md += fmt::format("- Assumption: the first release serves {}.\n", md_inline(audience, 200));
  if (!stated_audience) {
    md += "- Open question: who exactly are the primary users? The description does not say; the audience above is assumed.\n";
  }
  if (domains.empty()) {
    md += "- Open question: which tools or processes does this replace? No familiar domain was recognised, so the general template was used.\n";
  }
  if (stated.size() >= 3) {
    md += "- Open question: which of the stated capabilities are needed for launch, and which can follow?\n";
  }
  bool regulated = false;
  for (const Domain* d : domains) regulated = regulated || d->id == "security" || d->id == "health" || d->id == "payments";
  if (!regulated) md += "- Open question: which regulations apply to the data involved (for example GDPR)?\n";
  md += "- Open question: what budget and target date apply to the first release?\n";

  if (previous) {
    md += fmt::format("\n## 9. Changes Since Revision {}\n\n", revision - 1);
    const std::string old_title = previous->value("title", std::string());
    if (old_title != title) {
      md += fmt::format("- Title changed from \"{}\" to \"{}\"\n", md_inline(old_title, 200), title);
    }
    describe_changes(md, "Goal", strings_of(*previous, "goals"), goals);
    std::vector<std::string> in_scope_all = stated;
    in_scope_all.insert(in_scope_all.end(), in_scope_domain.begin(), in_scope_domain.end());
    describe_changes(md, "In-scope item", strings_of(*previous, "in_scope"), in_scope_all);
  }

  md += "\n## Next Step\n\n";
  if (input.conversation_id) {
    md += fmt::format(
        "Call architecture_agent with conversation_id \"{}\": it will build on this document (goals, scope and domains).\n",
        *input.conversation_id);
  } else {
    md += "Give a conversation_id to vision_agent and architecture_agent so the architecture can build on this document.\n";
  }

  Json facts = Json::object();
  facts["title"] = title;
  facts["audience"] = audience;
  facts["vision_statement"] = vision_statement;
  facts["goals"] = goals;
  std::vector<std::string> in_scope_all = stated;
  in_scope_all.insert(in_scope_all.end(), in_scope_domain.begin(), in_scope_domain.end());
  facts["in_scope"] = in_scope_all;
  facts["out_of_scope"] = out_of_scope;
  facts["metrics"] = metric_names;
  Json domain_ids = Json::array();
  for (const Domain* d : domains) domain_ids.push_back(std::string(d->id));
  facts["domains"] = domain_ids;
  facts["revision"] = revision;
  return GeneratedDocument{std::move(md), std::move(facts)};
}

}  // namespace clariad
