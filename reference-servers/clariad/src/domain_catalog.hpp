#pragma once
// What Clariad "knows" about common kinds of software projects, in place of a language model:
// each domain is recognised by trigger words and contributes stakeholders, scope, metrics,
// risks, components, quality attributes and one architecture decision. Documents are
// assembled from the domains an input mentions, in a fixed order, so output is deterministic.
#include <cstddef>
#include <string_view>
#include <vector>

namespace clariad {

struct Stakeholder {
  std::string_view name;
  std::string_view interest;
};

struct Metric {
  std::string_view name;
  std::string_view target;
};

struct Risk {
  std::string_view risk;
  std::string_view likelihood;
  std::string_view impact;
  std::string_view mitigation;
};

struct Component {
  std::string_view name;
  std::string_view responsibility;
  std::string_view interfaces;
  std::vector<std::string_view> keywords;  // requirement words this component answers to
  bool client = false;                     // clients call the API layer; others are called by the core
  std::string_view flow = {};              // data-flow step for components not owned by a domain
};

struct Quality {
  std::string_view attribute;
  std::string_view scenario;
  std::string_view target;
  std::string_view tactics;
};

struct Decision {
  std::string_view title;
  std::string_view context;
  std::string_view decision;
  std::string_view consequences;
};

struct Domain {
  std::string_view id;
  std::string_view label;
  std::string_view noun;  // qualifies a one-word title: "Platform" -> "Health Platform"
  std::vector<std::string_view> triggers;  // see mentions(): whole words, '*' for prefixes
  // Parts of the vision statement ("For <audience> who <need>, X is <category> that <benefit>.
  // Unlike <alternative>, it <differentiator>.").
  std::string_view audience;
  std::string_view need;
  std::string_view category;
  std::string_view benefit;
  std::string_view alternative;
  std::string_view differentiator;
  std::string_view problem;
  std::vector<std::string_view> goals;
  std::vector<Stakeholder> stakeholders;
  std::vector<std::string_view> in_scope;
  std::vector<std::string_view> out_of_scope;
  std::vector<Metric> metrics;
  std::vector<Risk> risks;
  std::vector<Component> components;
  std::vector<Quality> qualities;
  std::vector<Decision> decisions;
  std::vector<std::string_view> flow;  // data-flow steps this domain adds
};

const std::vector<Domain>& domain_catalog();

// Used for every document: vision-statement fallbacks, and the goals, stakeholders, metrics
// and risks every project has.
const Domain& general_domain();

const Domain* find_domain(std::string_view id);

// Domains mentioned in text: most trigger hits first, then the one mentioned earliest.
std::vector<const Domain*> match_domains(std::string_view text, std::size_t max_domains);

// Usual exclusions for a first release, each dropped when the input asks for it.
struct ScopeExclusion {
  std::string_view text;
  std::vector<std::string_view> unless;
};
const std::vector<ScopeExclusion>& default_exclusions();

// Components every architecture has, and those added when the requirements mention them.
const std::vector<Component>& base_components();
const std::vector<Component>& optional_components();

}  // namespace clariad
