// The two document tools: structure, use of the inputs, determinism, and the text heuristics
// they are built on.
#include <catch2/catch.hpp>
#include <string>

#include "architecture_document.hpp"
#include "domain_catalog.hpp"
#include "stated_targets.hpp"
#include "text_utils.hpp"
#include "tool_catalog.hpp"
#include "vision_document.hpp"

using namespace clariad;

namespace {

std::size_t position(const std::string& text, const std::string& needle) {
  const std::size_t at = text.find(needle);
  INFO("missing: " << needle);
  REQUIRE(at != std::string::npos);
  return at;
}

void check_in_order(const std::string& text, const std::vector<std::string>& parts) {
  std::size_t last = 0;
  for (const std::string& part : parts) {
    const std::size_t at = position(text, part);
    CHECK(at >= last);
    last = at;
  }
}

const char* kDescription =
    "A mobile app for small restaurant owners that lets users manage reservations, track inventory and accept online "
    "payments. It should send reminders to guests.";

}  // namespace

TEST_CASE("titles come from the first clause without filler", "[text]") {
  CHECK(derive_title("An AI-powered task management system") == "AI-Powered Task Management System");
  CHECK(derive_title("We want to build a platform for dog walkers to find clients.") == "Platform for Dog Walkers");
  CHECK(derive_title("A mobile app that helps restaurants") == "Mobile App");
  CHECK(derive_title("   ") == "Untitled Project");
  CHECK(derive_title("the") == "Untitled Project");
  CHECK(derive_title("iOS budgeting tool, simple and fast") == "iOS Budgeting Tool");
}

TEST_CASE("audience and stated capabilities are read from the description", "[text]") {
  CHECK(find_audience(kDescription) == std::optional<std::string>("small restaurant owners"));
  CHECK_FALSE(find_audience("An AI-powered task management system"));
  CHECK(find_audience("A tool used by nurses to plan shifts") == std::optional<std::string>("nurses"));
  const std::vector<std::string> caps = stated_capabilities(kDescription);
  CHECK(caps == std::vector<std::string>{"Manage reservations", "Track inventory", "Accept online payments",
                                         "Send reminders to guests"});
  CHECK(stated_capabilities("An AI-powered task management system").empty());
}

TEST_CASE("requirement items split on lines, bullets, sentences and semicolons", "[text]") {
  const auto items = split_items("# Needs\n- Users log in; admins manage roles\n2. Pages load in 200 ms. Data is kept 7 years\n\n* e.g. exports work");
  CHECK(items == std::vector<std::string>{"Needs", "Users log in", "admins manage roles", "Pages load in 200 ms.",
                                          "Data is kept 7 years", "e.g. exports work"});
}

TEST_CASE("whole-word and prefix matching", "[text]") {
  const std::string n = normalize_for_matching("Real-time Collaboration, in ORDER to ship!");
  CHECK(mentions(n, "real-time"));
  CHECK(mentions(n, "collaborat*"));
  CHECK_FALSE(mentions(n, "collab"));
  CHECK_FALSE(mentions(n, "orders"));
  CHECK(mentions(n, "ship"));
}

TEST_CASE("shorten never splits a UTF-8 character", "[text]") {
  const std::string s = "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9";
  const std::string cut = shorten(s, 6);
  CHECK(cut == "\xC3\xA9...");
  CHECK(shorten("short", 10) == "short");
}

TEST_CASE("stated targets are extracted from requirements", "[text]") {
  const StatedTargets t = find_stated_targets(
      "The API must respond within 200ms. We need 99.9% uptime. It must support 10,000 concurrent users.");
  CHECK(t.response_time == std::optional<std::string>("200 ms"));
  CHECK(t.availability == std::optional<std::string>("99.9%"));
  CHECK(t.users == std::optional<std::string>("10,000 concurrent users"));
  CHECK(t.user_count == 10000);
  const StatedTargets k = find_stated_targets("Up to 50k daily active users; pages load in 2 seconds");
  CHECK(k.users == std::optional<std::string>("50k daily active users"));
  CHECK(k.user_count == 50000);
  CHECK(k.response_time == std::optional<std::string>("2 s"));
  const StatedTargets none = find_stated_targets("Keep 30% of stock in reserve. Store data for 5 seconds.");
  CHECK_FALSE(none.availability);
  CHECK_FALSE(none.response_time);
  CHECK_FALSE(none.users);
}

TEST_CASE("domains are recognised from trigger words", "[domains]") {
  auto ids = [](std::string_view text) {
    std::vector<std::string> out;
    for (const Domain* d : match_domains(text, 4)) out.emplace_back(d->id);
    return out;
  };
  CHECK(ids("An AI-powered task management system") == std::vector<std::string>{"ai", "tasks"});
  CHECK(ids("in order to improve things") == std::vector<std::string>{});
  const auto restaurant = ids(kDescription);
  CHECK(std::find(restaurant.begin(), restaurant.end(), "mobile") != restaurant.end());
  CHECK(std::find(restaurant.begin(), restaurant.end(), "payments") != restaurant.end());
  CHECK(std::find(restaurant.begin(), restaurant.end(), "logistics") != restaurant.end());
}

TEST_CASE("vision document has every section and uses the inputs", "[vision]") {
  const GeneratedDocument doc = build_vision_document({"An AI-powered task management system", "project-123"}, {});
  const std::string& md = doc.markdown;
  check_in_order(md, {"# Vision & Scope: AI-Powered Task Management System", "| Conversation | project-123 |",
                      "| Revision | 1 |", "## 1. Problem Statement", "> An AI-powered task management system",
                      "## 2. Vision Statement", "## 3. Stakeholders", "## 4. Business Goals", "## 5. Scope",
                      "### 5.1 In Scope", "### 5.2 Out of Scope", "## 6. Success Metrics", "## 7. Risks",
                      "## 8. Assumptions and Open Questions", "## Next Step"});
  CHECK_THAT(md, Catch::Contains("AI and machine learning; Task and project management"));
  CHECK_THAT(md, Catch::Contains("For teams that handle repetitive knowledge work who"));
  CHECK_THAT(md, Catch::Contains("| G1 |"));
  CHECK_THAT(md, Catch::Contains("| M1 |"));
  CHECK_THAT(md, Catch::Contains("| K1 |"));
  CHECK_THAT(md, Catch::Contains("Native mobile apps"));  // not asked for, so excluded
  CHECK_THAT(md, !Catch::Contains("## 9. Changes"));
  CHECK(doc.facts.at("title") == "AI-Powered Task Management System");
  CHECK(doc.facts.at("domains") == Json::array({"ai", "tasks"}));
  CHECK(doc.facts.at("revision") == 1);
  CHECK(doc.facts.at("goals").size() >= 4);
}

TEST_CASE("vision scope follows what the description asks for", "[vision]") {
  const GeneratedDocument doc = build_vision_document({kDescription, std::nullopt}, {});
  const std::string& md = doc.markdown;
  CHECK_THAT(md, Catch::Contains("End users (small restaurant owners)"));
  CHECK_THAT(md, Catch::Contains("Stated in the project description:\n\n- Manage reservations\n- Track inventory"));
  CHECK_THAT(md, !Catch::Contains("Native mobile apps"));  // the description asks for a mobile app
  CHECK_THAT(md, Catch::Contains("| Conversation | none (stand-alone document) |"));
  CHECK_THAT(md, Catch::Contains("Give a conversation_id"));
}

TEST_CASE("user text cannot break the Markdown structure", "[vision]") {
  const GeneratedDocument doc = build_vision_document({"A | pipe\n# heading\nfor people | with pipes", "c|1"}, {});
  CHECK_THAT(doc.markdown, Catch::Contains("| Conversation | c\\|1 |"));
  CHECK_THAT(doc.markdown, !Catch::Contains("\n# heading"));
}

TEST_CASE("documents are deterministic byte for byte", "[vision][architecture]") {
  const VisionInput v{kDescription, "c1"};
  CHECK(build_vision_document(v, {}).markdown == build_vision_document(v, {}).markdown);
  const ArchitectureInput a{"Bistro", "Guests book tables.\nStaff see the day's bookings.", "c1"};
  CHECK(build_architecture_document(a, {}).markdown == build_architecture_document(a, {}).markdown);
  const GeneratedDocument vision = build_vision_document(v, {});
  const std::vector<ContextEntry> context{{kVisionTool, vision.markdown, vision.facts}};
  CHECK(build_architecture_document(a, context).markdown == build_architecture_document(a, context).markdown);
}

TEST_CASE("a second vision revision describes what changed", "[vision]") {
  const GeneratedDocument first = build_vision_document({"An AI-powered task management system", "c"}, {});
  const std::vector<ContextEntry> context{{kVisionTool, first.markdown, first.facts}};
  const GeneratedDocument second = build_vision_document({"A task management system for nurses", "c"}, context);
  CHECK_THAT(second.markdown, Catch::Contains("| Revision | 2 (supersedes revision 1) |"));
  CHECK_THAT(second.markdown, Catch::Contains("## 9. Changes Since Revision 1"));
  CHECK_THAT(second.markdown, Catch::Contains("Title changed from \"AI-Powered Task Management System\""));
  CHECK_THAT(second.markdown, Catch::Contains("Goal removed: Keep every AI suggestion explainable"));
  CHECK(second.facts.at("revision") == 2);
}

TEST_CASE("architecture document has every section", "[architecture]") {
  const GeneratedDocument doc = build_architecture_document(
      {"TaskPilot",
       "- Users create, assign and track tasks\n- Send reminders by e-mail before deadlines\n- The API must respond "
       "within 200 ms\n- 99.9% uptime",
       std::nullopt},
      {});
  const std::string& md = doc.markdown;
  check_in_order(md, {"# Architecture: TaskPilot", "| Based on | Requirements only", "## 1. Context and Drivers",
                      "### 1.1 Requirements", "| R1 | Users create, assign and track tasks |",
                      "### 1.2 From the Vision & Scope Document", "No Vision & Scope document exists",
                      "### 1.3 Targets Stated in the Requirements", "- Response time: 200 ms",
                      "- Availability: 99.9%", "- Load: not stated", "## 2. Architectural Style: Modular monolith",
                      "## 3. Components", "| Task service |", "| Notification service |", "| Cache |",
                      "## 4. Data Flow", "```mermaid", "## 5. Quality Attributes", "p95 response <= 200 ms (stated)",
                      "99.9% monthly (stated)", "10x the launch load without redesign (assumed)",
                      "## 6. Architecture Decision Records", "### ADR-001: Structure the system as a modular monolith",
                      "- **Status:** Proposed", "- **Context:**", "- **Decision:**", "- **Consequences:**",
                      "### ADR-005: Model task status as an explicit state machine", "## 7. Traceability",
                      "| R2 | Task service, Notification service", "## 8. Risks and Open Issues", "No number in the requirements for load"});
  CHECK(doc.facts.at("style") == "Modular monolith");
  CHECK(doc.facts.at("vision_revision") == 0);
}

TEST_CASE("architecture builds on the vision of the same conversation", "[architecture]") {
  const GeneratedDocument vision = build_vision_document({"An AI-powered task management system", "p"}, {});
  const std::vector<ContextEntry> context{{kVisionTool, vision.markdown, vision.facts}};
  const GeneratedDocument doc = build_architecture_document({"TaskPilot", "Users create tasks.", "p"}, context);
  const std::string& md = doc.markdown;
  CHECK_THAT(md, Catch::Contains("| Based on | Requirements and Vision & Scope revision 1 (\"AI-Powered Task Management System\") of this conversation |"));
  CHECK_THAT(md, Catch::Contains("- **Vision:** For teams that handle repetitive knowledge work"));
  CHECK_THAT(md, Catch::Contains("| AI inference gateway |"));  // domain taken from the vision
  CHECK_THAT(md, Catch::Contains("| G1 (vision) |"));
  CHECK_THAT(md, Catch::Contains("Bound the first release by the Vision & Scope document"));
  CHECK_THAT(md, Catch::Contains("  - Native mobile apps"));
  CHECK(doc.facts.at("vision_revision") == 1);

  const GeneratedDocument again = build_architecture_document(
      {"TaskPilot", "Users create tasks.", "p"},
      {{kVisionTool, vision.markdown, vision.facts}, {kArchitectureTool, doc.markdown, doc.facts}});
  CHECK_THAT(again.markdown, Catch::Contains("## 9. Changes Since Revision 1"));
  CHECK_THAT(again.markdown, Catch::Contains("- Components and style unchanged"));
}

TEST_CASE("architecture style follows the inputs", "[architecture]") {
  CHECK(build_architecture_document({"Fleet", "Ingest telemetry from 5,000 sensors in real time", std::nullopt}, {})
            .facts.at("style") == "Event-driven architecture");
  CHECK(build_architecture_document({"Shop", "Checkout for 2 million users", std::nullopt}, {}).facts.at("style") ==
        "Service-based architecture");
  CHECK(build_architecture_document({"Notes", "Write notes", std::nullopt}, {}).facts.at("style") == "Modular monolith");
}

TEST_CASE("documents from the largest inputs stay well inside the context budget", "[architecture]") {
  // Worst case for bytes: every character a 4-byte UTF-8 sequence, at the character limits.
  std::string wide;
  for (int i = 0; i < 8; ++i) wide += "\xF0\x9F\x98\x80";
  std::string description;
  while (count_code_points(description) + 50 < kMaxDescriptionChars) description += "Tasks " + wide + " files, ";
  std::string requirements;
  while (count_code_points(requirements) + 50 < kMaxRequirementsChars) requirements += "- Users upload " + wide + " files\n";
  std::string name;
  while (count_code_points(name) < kMaxNameChars) name += "\xF0\x9F\x98\x80";
  const GeneratedDocument vision = build_vision_document({description, "c"}, {});
  const GeneratedDocument arch =
      build_architecture_document({name, requirements, "c"}, {{kVisionTool, vision.markdown, vision.facts}});
  const std::size_t vision_bytes = ContextEntry{kVisionTool, vision.markdown, vision.facts}.bytes();
  const std::size_t arch_bytes = ContextEntry{kArchitectureTool, arch.markdown, arch.facts}.bytes();
  const ConversationLimits defaults;
  // A vision and two architecture revisions fit together, so the vision is never the victim of
  // byte eviction in the usual vision -> architecture -> architecture sequence.
  CHECK(vision_bytes + 2 * arch_bytes < defaults.max_bytes);
  CHECK_THAT(arch.markdown, Catch::Contains("further requirement items are not listed"));
  CHECK_THAT(vision.markdown, Catch::Contains("> " + description.substr(0, 20)));
}

TEST_CASE("requirements that contradict the vision's scope are reported", "[architecture]") {
  const GeneratedDocument vision = build_vision_document({"An AI-powered task management system", "p"}, {});
  const std::vector<ContextEntry> context{{kVisionTool, vision.markdown, vision.facts}};
  const GeneratedDocument doc =
      build_architecture_document({"TaskPilot", "Users manage tasks from an iOS app. The API must respond quickly.", "p"}, context);
  CHECK_THAT(doc.markdown, Catch::Contains("- **Conflict:** the requirements ask for \"Native mobile apps"));
  CHECK_THAT(doc.markdown, Catch::Contains("- Scope conflict: \"Native mobile apps"));
  CHECK_THAT(doc.markdown, Catch::Contains("| Mobile client |"));  // designed for anyway
  CHECK_THAT(doc.markdown, !Catch::Contains("Webhook dispatcher"));  // "API" alone is no integration request

  const GeneratedDocument clean = build_architecture_document({"TaskPilot", "Users manage tasks.", "p"}, context);
  CHECK_THAT(clean.markdown, !Catch::Contains("Conflict"));
  // The vision's "offline quality checks" (AI scope) must not turn into an offline requirement.
  CHECK_THAT(clean.markdown, !Catch::Contains("Offline capability"));
}
