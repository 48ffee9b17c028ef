#include "architecture_document.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "domain_catalog.hpp"
#include "markdown.hpp"
#include "stated_targets.hpp"
#include "text_utils.hpp"

namespace clariad {

namespace {

constexpr std::size_t kMaxDomains = 4;

enum class Style { ModularMonolith, ServiceBased, EventDriven };

struct StyleText {
  std::string_view name;
  std::string_view summary;
  std::string_view decision;
  std::string_view consequences;
};

StyleText style_text(Style style) {
  switch (style) {
    case Style::EventDriven:
      return {"Event-driven architecture",
              "Components communicate through a durable message broker: producers publish events, consumers process "
              "them at their own pace. Request/response over the API layer remains for user actions.",
              "Build the system around a durable message broker. Ingestion and user-facing requests publish events; "
              "processing, storage and notifications are independent consumers that can be scaled and deployed on "
              "their own.",
              "Bursts are absorbed by the broker and slow consumers do not block producers; in exchange the system is "
              "eventually consistent, the broker must be operated, and tracing a request across events needs "
              "correlation ids."};
    case Style::ServiceBased:
      return {"Service-based architecture",
              "A handful of coarse-grained services, one per domain area, behind one API layer. Services own their "
              "tables (separate schemas in one database cluster) and talk through internal APIs and domain events.",
              "Split the backend into a few coarse-grained services along the domain areas listed under Components, "
              "each deployable on its own, sharing one database cluster with a schema per service.",
              "Teams and scaling are independent per domain area; cross-service changes need coordination, and "
              "network calls between services add latency and failure modes that a monolith would not have."};
    case Style::ModularMonolith:
      break;
  }
  return {"Modular monolith",
          "One deployable application with strict internal modules (one per domain area), one relational database "
          "and a thin API layer. Modules talk through explicit interfaces, never through each other's tables.",
          "Build one deployable application made of modules with explicit interfaces, one per domain area, backed by "
          "one relational database.",
          "Lowest operational cost and simplest transactions for a first release; modules can be extracted into "
          "services later because their boundaries are explicit, but the whole application scales and deploys as one "
          "unit until then."};
}

bool matches_any(const std::string& normalized, const std::vector<std::string_view>& keywords) {
  return std::any_of(keywords.begin(), keywords.end(), [&](std::string_view k) { return mentions(normalized, k); });
}

std::vector<std::string> strings_of(const Json& facts, const char* key) {
  std::vector<std::string> out;
  if (facts.contains(key) && facts[key].is_array()) {
    for (const Json& v : facts[key]) {
      if (v.is_string()) out.push_back(v.get<std::string>());
    }
  }
  return out;
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += sep;
    out += p;
  }
  return out;
}

struct Adr {
  std::string title, context, decision, consequences;
};

}  // namespace

GeneratedDocument build_architecture_document(const ArchitectureInput& input, const std::vector<ContextEntry>& context) {
  const std::string name = md_inline(input.project_name, 400);
  const std::vector<std::string> all_items = split_items(input.requirements);
  const std::optional<Json> vision = latest_facts(context, kVisionTool);
  const std::optional<Json> previous = latest_facts(context, kArchitectureTool);
  const int revision = previous ? previous->value("revision", 0) + 1 : 1;

  // Domains: those the requirements mention first, then those the vision recognised.
  std::vector<const Domain*> domains = match_domains(input.project_name + "\n" + input.requirements, kMaxDomains);
  if (vision) {
    for (const std::string& id : strings_of(*vision, "domains")) {
      const Domain* d = find_domain(id);
      if (d && domains.size() < kMaxDomains && std::find(domains.begin(), domains.end(), d) == domains.end()) {
        domains.push_back(d);
      }
    }
  }
  auto has_domain = [&](std::string_view id) {
    return std::any_of(domains.begin(), domains.end(), [&](const Domain* d) { return d->id == id; });
  };

  // Text that decides optional components: the requirements plus what the vision put in scope.
  std::string scope_text = input.requirements;
  if (vision) {
    for (const std::string& s : strings_of(*vision, "in_scope")) scope_text += "\n" + s;
  }
  const std::string normalized = normalize_for_matching(input.project_name + "\n" + scope_text);
  // Quality attributes and conflicts are judged on what this call asked for, not on the vision.
  const std::string normalized_requirements = normalize_for_matching(input.project_name + "\n" + input.requirements);
  const StatedTargets targets = find_stated_targets(input.requirements);

  // Requirements that ask for something the vision put out of scope: designed for anyway (the
  // requirements are the newer input), but reported so that one of the two gets corrected.
  std::vector<std::string> conflicts;
  if (vision) {
    const std::vector<std::string> excluded = strings_of(*vision, "out_of_scope");
    for (const ScopeExclusion& ex : default_exclusions()) {
      if (std::find(excluded.begin(), excluded.end(), std::string(ex.text)) == excluded.end()) continue;
      if (matches_any(normalized_requirements, ex.unless)) conflicts.emplace_back(ex.text);
    }
  }

  Style style = Style::ModularMonolith;
  if (has_domain("iot") || matches_any(normalized_requirements, {"event-driven", "event driven", "streaming",
                                                                  "stream processing", "real-time", "realtime",
                                                                  "event sourcing"})) {
    style = Style::EventDriven;
  } else if (domains.size() >= 3 || targets.user_count >= 100000 ||
             matches_any(normalized_requirements, {"microservice*", "million", "millions"})) {
    style = Style::ServiceBased;
  }
  const StyleText st = style_text(style);

  // Components in a fixed order: clients, API, core, domain components, optional ones, data,
  // identity, observability.
  std::vector<Component> components;
  const auto& base = base_components();
  components.push_back(base[0]);  // Web client
  for (const Domain* d : domains) {
    for (const Component& c : d->components) {
      if (c.client) components.push_back(c);
    }
  }
  components.push_back(base[1]);  // API layer
  Component core = base[2];
  const std::string core_responsibility =
      fmt::format("Domain rules and use cases of {}; the only component that writes business data", name);
  core.responsibility = core_responsibility;
  components.push_back(core);
  for (const Domain* d : domains) {
    for (const Component& c : d->components) {
      if (!c.client) components.push_back(c);
    }
  }
  std::vector<const Component*> optional_used;
  for (const Component& c : optional_components()) {
    const bool implied = (c.name == "Notification service" && (has_domain("scheduling") || has_domain("tasks"))) ||
                         (c.name == "Cache" && targets.response_time.has_value());
    if (implied || matches_any(normalized, c.keywords)) {
      components.push_back(c);
      optional_used.push_back(&c);
    }
  }
  for (std::size_t i = 3; i < base.size(); ++i) components.push_back(base[i]);

  std::vector<std::string> component_names;
  for (const Component& c : components) component_names.emplace_back(c.name);

  // ---- header
  std::string md = fmt::format("# Architecture: {}\n\n", name);
  std::string based_on = "Requirements only (no Vision & Scope document in this conversation)";
  if (vision) {
    based_on = fmt::format("Requirements and Vision & Scope revision {} (\"{}\") of this conversation",
                           vision->value("revision", 0), vision->value("title", std::string()));
  }
  std::vector<std::string> labels;
  for (const Domain* d : domains) labels.emplace_back(d->label);
  md += md_table({"Item", "Value"},
                 {{"Conversation", input.conversation_id ? *input.conversation_id : "none (stand-alone document)"},
                  {"Revision", previous ? fmt::format("{} (supersedes revision {})", revision, revision - 1)
                                        : std::string("1")},
                  {"Based on", based_on},
                  {"Architectural style", std::string(st.name)},
                  {"Recognised domains", labels.empty() ? "none (general template)" : join(labels, "; ")},
                  {"Generated by", "architecture_agent (deterministic; no language model)"}});

  // ---- 1. drivers
  md += "\n## 1. Context and Drivers\n\n### 1.1 Requirements\n\n";
  const std::size_t listed = std::min(all_items.size(), kMaxListedRequirements);
  std::vector<std::vector<std::string>> req_rows;
  for (std::size_t i = 0; i < listed; ++i) req_rows.push_back({fmt::format("R{}", i + 1), all_items[i]});
  md += md_table({"ID", "Requirement"}, req_rows);
  if (all_items.size() > listed) {
    md += fmt::format("\n{} further requirement items are not listed or traced here (limit {}).\n",
                      all_items.size() - listed, kMaxListedRequirements);
  }

  std::vector<std::string> goals;
  if (vision) {
    goals = strings_of(*vision, "goals");
    md += "\n### 1.2 From the Vision & Scope Document\n\n";
    md += fmt::format("- **Vision:** {}\n", md_inline(vision->value("vision_statement", std::string()), 1000));
    md += "- **Goals:** traced to components in section 7.\n";
    md += "- **Out of scope (not designed for):**\n";
    for (const std::string& s : strings_of(*vision, "out_of_scope")) md += "  - " + md_inline(s, 300) + "\n";
    for (const std::string& c : conflicts) {
      md += fmt::format("- **Conflict:** the requirements ask for \"{}\", which the Vision & Scope document lists as "
                        "out of scope. This design includes it; update one of the two documents.\n",
                        c);
    }
  } else {
    md += "\n### 1.2 From the Vision & Scope Document\n\n";
    md += "No Vision & Scope document exists in this conversation, so goals and scope boundaries could not be used. ";
    md += "Run vision_agent with the same conversation_id first to get goal traceability.\n";
  }

  md += "\n### 1.3 Targets Stated in the Requirements\n\n";
  md += fmt::format("- Response time: {}\n", targets.response_time.value_or("not stated"));
  md += fmt::format("- Availability: {}\n", targets.availability.value_or("not stated"));
  md += fmt::format("- Load: {}\n", targets.users.value_or("not stated"));

  // ---- 2. style
  md += fmt::format("\n## 2. Architectural Style: {}\n\n{}\n\n", st.name, st.summary);
  md += "Why: ";
  switch (style) {
    case Style::EventDriven:
      md += "the inputs describe real-time data, streams or device telemetry, which arrive in bursts and must not be "
            "lost while they are processed.\n";
      break;
    case Style::ServiceBased:
      md += fmt::format("the inputs span {} domain areas{}, which benefit from separately deployable and scalable "
                        "parts.\n",
                        domains.size(), targets.users ? " and a large stated load (" + *targets.users + ")" : "");
      break;
    case Style::ModularMonolith:
      md += "nothing in the inputs calls for independent scaling or streaming, so the simplest structure that keeps "
            "domain boundaries explicit is preferred for the first release.\n";
      break;
  }

  // ---- 3. components
  md += "\n## 3. Components\n\n";
  std::vector<std::vector<std::string>> component_rows;
  for (const Component& c : components) {
    component_rows.push_back({std::string(c.name), std::string(c.responsibility), std::string(c.interfaces)});
  }
  md += md_table({"Component", "Responsibility", "Interfaces"}, component_rows);

  // ---- 4. data flow
  md += "\n## 4. Data Flow\n\n```mermaid\nflowchart LR\n";
  auto node = [&](std::string_view component) {
    const auto it = std::find(component_names.begin(), component_names.end(), std::string(component));
    return fmt::format("n{}", it - component_names.begin() + 1);
  };
  for (std::size_t i = 0; i < components.size(); ++i) {
    md += fmt::format("  n{}[\"{}\"]\n", i + 1, components[i].name);
  }
  for (const Component& c : components) {
    if (c.client) md += fmt::format("  {} --> {}\n", node(c.name), node("API layer"));
  }
  md += fmt::format("  {} --> {}\n", node("API layer"), node("Identity provider (external)"));
  md += fmt::format("  {} --> {}\n", node("API layer"), node("Core application service"));
  for (const Component& c : components) {
    if (c.client || c.name == "API layer" || c.name == "Core application service" ||
        c.name == "Identity provider (external)" || c.name == "Observability") {
      continue;
    }
    md += fmt::format("  {} --> {}\n", node("Core application service"), node(c.name));
  }
  md += "```\n\n";

  std::vector<std::string> steps;
  steps.push_back(has_domain("mobile")
                      ? "A user acts in the Web client or the Mobile client; the client sends an HTTPS request with an access token to the API layer."
                      : "A user acts in the Web client, which sends an HTTPS request with an access token to the API layer.");
  steps.push_back("The API layer checks the token against the Identity provider's published keys, validates the input and calls the Core application service.");
  steps.push_back("The Core application service applies the domain rules and reads or writes the Relational database in one transaction.");
  for (const Domain* d : domains) {
    for (auto f : d->flow) steps.emplace_back(f);
  }
  for (const Component* c : optional_used) {
    if (!c->flow.empty()) steps.emplace_back(c->flow);
  }
  steps.push_back("The response returns the same way; every component sends logs, metrics and traces to Observability.");
  for (std::size_t i = 0; i < steps.size(); ++i) md += fmt::format("{}. {}\n", i + 1, steps[i]);

  // ---- 5. quality attributes
  md += "\n## 5. Quality Attributes\n\n";
  std::vector<std::vector<std::string>> quality_rows;
  std::vector<std::string> assumed;
  quality_rows.push_back({"Performance", "A user performs a common action at peak load",
                          targets.response_time ? "p95 response <= " + *targets.response_time + " (stated)"
                                                : "p95 API response <= 300 ms (assumed)",
                          "Indexes for the main queries, caching of hot reads, pagination"});
  if (!targets.response_time) assumed.push_back("response time (300 ms p95 assumed)");
  quality_rows.push_back({"Availability", "One application instance or zone fails",
                          targets.availability ? *targets.availability + " monthly (stated)" : "99.5% monthly (assumed)",
                          "Two or more instances behind a load balancer; managed database with automatic failover; health checks"});
  if (!targets.availability) assumed.push_back("availability (99.5% monthly assumed)");
  quality_rows.push_back({"Scalability", "Usage grows after launch",
                          targets.users ? *targets.users + " without redesign (stated)"
                                        : "10x the launch load without redesign (assumed)",
                          "Stateless application instances, horizontal scaling, read replicas"});
  if (!targets.users) assumed.push_back("load (10x launch load assumed)");
  quality_rows.push_back({"Security", "Someone tries to read another user's data", "Denied and logged",
                          "OIDC tokens, an authorisation check on every request, TLS everywhere, encryption at rest, dependency scanning"});
  for (const Domain* d : domains) {
    for (const Quality& q : d->qualities) {
      quality_rows.push_back({std::string(q.attribute), std::string(q.scenario), std::string(q.target), std::string(q.tactics)});
    }
  }
  if (matches_any(normalized_requirements, {"accessib*", "wcag", "a11y", "screen reader*"})) {
    quality_rows.push_back({"Accessibility", "A screen-reader user completes the core flows", "WCAG 2.1 AA",
                            "Semantic HTML, keyboard navigation, automated and manual accessibility tests"});
  }
  if (matches_any(normalized_requirements, {"offline"})) {
    quality_rows.push_back({"Offline capability", "The client loses its connection",
                            "Core flows keep working; changes sync within a minute of reconnecting",
                            "Local storage of pending changes, idempotent sync API, conflict rules"});
  }
  quality_rows.push_back({"Maintainability", "A developer changes one domain area", "The change stays inside one module and ships within a day",
                          "Explicit module boundaries, automated tests, CI/CD pipeline"});
  quality_rows.push_back({"Observability", "An incident happens in production", "Detected within 5 minutes and traceable to the request",
                          "Structured logs with request ids, RED metrics, distributed tracing, alerts on SLOs"});
  md += md_table({"Attribute", "Scenario", "Target", "Tactics"}, quality_rows);

  // ---- 6. ADRs
  std::vector<Adr> adrs;
  {
    const std::string style_lower = to_lower_ascii(st.name);
    const char* article = std::string_view("aeiou").find(style_lower.front()) != std::string_view::npos ? "an" : "a";
    const std::vector<std::string> first_items(all_items.begin(),
                                               all_items.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(listed, 3)));
    adrs.push_back({fmt::format("Structure the system as {} {}", article, style_lower),
                    fmt::format("{} must support: {}. Recognised domain areas: {}.", name,
                                first_items.empty() ? std::string("the stated requirements")
                                                    : md_inline(join(first_items, "; "), 600),
                                labels.empty() ? "none beyond the general template" : join(labels, ", ")),
                    std::string(st.decision), std::string(st.consequences)});
  }
  adrs.push_back({"Use a relational database as the system of record",
                  "Business data has relationships and invariants that must hold across concurrent updates; the team needs ad-hoc queries and reliable backups.",
                  "Store business data in a managed relational database (e.g. PostgreSQL), one schema per module, with migrations under version control. Specialised stores (search, time series, objects) are added only where a component above needs one, and are fed from the system of record.",
                  "Transactions and constraints protect invariants and the technology is well understood; very high write volumes or unstructured data need the specialised stores named in section 3."});
  const bool push_updates =
      has_domain("collaboration") || matches_any(normalized_requirements, {"real-time", "realtime", "live update*"});
  adrs.push_back({"Expose a versioned REST/JSON API over HTTPS",
                  "Web" + std::string(has_domain("mobile") ? ", mobile" : "") + " clients and possibly partners need one stable way to reach the backend.",
                  std::string("All clients use one REST/JSON API over HTTPS, versioned in the path (/v1), described by an OpenAPI document.") +
                      (push_updates ? " Updates that must reach users immediately are pushed over a WebSocket channel." : ""),
                  "One contract to secure, document and test; chatty screens may need aggregate endpoints."});
  adrs.push_back({"Delegate sign-in to an external OpenID Connect provider",
                  "Building password storage, MFA and account recovery is costly and risky; users expect single sign-on.",
                  "Users sign in through an external OIDC identity provider; the API layer accepts its access tokens and maps claims to roles.",
                  "Strong authentication without owning credentials; the provider becomes a dependency for every sign-in."});
  for (const Domain* d : domains) {
    for (const Decision& dec : d->decisions) {
      adrs.push_back({std::string(dec.title), std::string(dec.context), std::string(dec.decision), std::string(dec.consequences)});
    }
  }
  if (vision) {
    const std::vector<std::string> out = strings_of(*vision, "out_of_scope");
    adrs.push_back({"Bound the first release by the Vision & Scope document",
                    fmt::format("The Vision & Scope document (revision {}) excludes: {}.", vision->value("revision", 0),
                                out.empty() ? std::string("nothing") : md_inline(join(out, "; "), 800)),
                    "No component, interface or data structure is designed for the out-of-scope items; each goal of the vision is traced to at least one component (section 7).",
                    "A smaller first release; adding an excluded capability later is a new decision that may add components."});
  }

  md += "\n## 6. Architecture Decision Records\n";
  std::vector<std::string> adr_titles;
  for (std::size_t i = 0; i < adrs.size(); ++i) {
    const Adr& a = adrs[i];
    adr_titles.push_back(a.title);
    md += fmt::format("\n### ADR-{:03}: {}\n\n", i + 1, a.title);
    md += "- **Status:** Proposed\n";
    md += "- **Context:** " + a.context + "\n";
    md += "- **Decision:** " + a.decision + "\n";
    md += "- **Consequences:** " + a.consequences + "\n";
  }

  // ---- 7. traceability
  md += "\n## 7. Traceability\n\n";
  auto components_for = [&](const std::string& text) {
    const std::string norm = normalize_for_matching(text);
    std::vector<std::string> hits;
    for (const Component& c : components) {
      if (!c.keywords.empty() && matches_any(norm, c.keywords)) hits.emplace_back(c.name);
    }
    if (hits.empty()) hits.emplace_back("Core application service");
    return join(hits, ", ");
  };
  std::vector<std::vector<std::string>> trace_rows;
  for (std::size_t i = 0; i < listed; ++i) trace_rows.push_back({fmt::format("R{}", i + 1), components_for(all_items[i])});
  for (std::size_t i = 0; i < goals.size(); ++i) {
    trace_rows.push_back({fmt::format("G{} (vision)", i + 1), components_for(goals[i])});
  }
  md += md_table({"Driver", "Addressed by"}, trace_rows);

  // ---- 8. risks
  md += "\n## 8. Risks and Open Issues\n\n";
  if (!assumed.empty()) {
    md += fmt::format("- No number in the requirements for {}: confirm these targets with the product owner.\n",
                      join(assumed, ", "));
  }
  if (!vision) md += "- Goals and scope were not checked against a Vision & Scope document.\n";
  for (const std::string& c : conflicts) {
    md += fmt::format("- Scope conflict: \"{}\" is out of scope in the vision but requested here (see section 1.2).\n", c);
  }
  if (all_items.size() > listed) md += "- Not every requirement item is traced (see section 1.1).\n";
  switch (style) {
    case Style::ModularMonolith:
      md += "- Module boundaries erode over time: enforce them with dependency checks in CI.\n";
      break;
    case Style::ServiceBased:
      md += "- Cross-service transactions: keep each use case inside one service or use a saga with compensation.\n";
      break;
    case Style::EventDriven:
      md += "- Event schemas become contracts between consumers: version them and keep a schema registry.\n";
      break;
  }
  for (const Domain* d : domains) {
    const Risk& r = d->risks.front();
    md += fmt::format("- {} (likelihood {}, impact {}): {}.\n", r.risk, r.likelihood, r.impact, r.mitigation);
  }

  if (previous) {
    md += fmt::format("\n## 9. Changes Since Revision {}\n\n", revision - 1);
    const std::vector<std::string> old_components = strings_of(*previous, "components");
    const std::set<std::string> old_set(old_components.begin(), old_components.end());
    const std::set<std::string> new_set(component_names.begin(), component_names.end());
    bool any = false;
    for (const auto& c : component_names) {
      if (!old_set.count(c)) {
        md += "- Component added: " + c + "\n";
        any = true;
      }
    }
    for (const auto& c : old_components) {
      if (!new_set.count(c)) {
        md += "- Component removed: " + md_inline(c, 200) + "\n";
        any = true;
      }
    }
    const std::string old_style = previous->value("style", std::string());
    if (old_style != st.name) {
      md += fmt::format("- Style changed from {} to {}\n", md_inline(old_style, 100), st.name);
      any = true;
    }
    if (previous->value("vision_revision", 0) != (vision ? vision->value("revision", 0) : 0)) {
      md += "- Based on a different Vision & Scope revision than before\n";
      any = true;
    }
    if (!any) md += "- Components and style unchanged\n";
  }

  Json facts = Json::object();
  facts["project_name"] = name;
  facts["style"] = std::string(st.name);
  facts["components"] = component_names;
  facts["adrs"] = adr_titles;
  facts["revision"] = revision;
  facts["vision_revision"] = vision ? vision->value("revision", 0) : 0;
  return GeneratedDocument{std::move(md), std::move(facts)};
}

}  // namespace clariad
