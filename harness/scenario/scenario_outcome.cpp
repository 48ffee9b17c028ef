#include "harness/scenario/scenario_outcome.hpp"

#include "harness/scenario/matcher.hpp"
#include "harness/scenario/requirements.hpp"
#include "harness/scenario/session.hpp"
#include "harness/scenario/step_support.hpp"
#include "harness/transport/transport.hpp"
#include "harness/util/clock.hpp"

#include <algorithm>

namespace mcpspec::scenario {

Deadline scenario_deadline(const Scenario& s, const RunConfig& cfg) {
  long long step = s.timeout_ms.value_or(0);
  auto widen = [&](const nlohmann::json& st) { step = std::max(step, step_ms(st, "within_ms")); };
  for_each_step(s.fixture_steps, widen);
  for_each_step(s.steps, widen);
  long long bound = std::max(static_cast<long long>(cfg.scenario_timeout_ms), step * 10);
  return Deadline::after_ms(bound).earliest(cfg.run_deadline);
}

ScenarioResult run_with_outcome(const Scenario& s, const RunConfig& cfg, const RoleWording& wording,
                                const std::optional<std::string>& extra_skip,
                                const std::function<ExecutionEnd(ScenarioResult&)>& execute) {
  ScenarioResult r;
  r.id = s.id;
  r.title = s.title;
  r.file = s.file;
  r.area = s.area;
  r.protocol = cfg.proposed_version;
  r.role = role_name(wording.role);
  r.transport = transport::transport_name(cfg.transport());
  r.requirements = s.requirements;
  r.level = s.level;
  r.tags = s.tags;
  if (cfg.catalog && !s.requirements.empty())
    if (auto q = cfg.catalog->find(cfg.proposed_version, s.requirements.front())) r.section = q->section;
  auto t0 = Clock::now();
  auto finish = [&](Verdict v, std::string reason) {
    r.verdict = v;
    r.reason = std::move(reason);
    r.duration_ms = ms_since(t0);
    return r;
  };
  if (s.role != wording.role)
    return finish(Verdict::Skip, std::string("a ") + role_name(s.role) + "-role scenario; this run tests a " +
                                     role_name(wording.role));
  if (!s.protocol.contains(cfg.proposed_version))
    return finish(Verdict::Skip, "applies to protocol " + s.protocol.text() + ", this run " + wording.version_verb + " " +
                                     cfg.proposed_version);
  if (!s.transports.empty() &&
      std::find(s.transports.begin(), s.transports.end(), transport::transport_name(cfg.transport())) == s.transports.end())
    return finish(Verdict::Skip, "needs transport " + s.transports.front() + ", this run uses " +
                                     transport::transport_name(cfg.transport()));
  if (extra_skip) return finish(Verdict::Skip, *extra_skip);
  if (cfg.run_deadline.passed()) return finish(Verdict::Error, "the run's --deadline passed before this scenario started");
  ExecutionEnd end;
  try {
    end = execute(r);
  } catch (const CannotCheck& e) {
    // A FAIL already found stands; otherwise the target is neither passed nor failed on a guess.
    if (verdict_from(r.findings) == Verdict::Fail) return finish(Verdict::Fail, e.what());
    return finish(Verdict::Error, e.what());
  } catch (const ScenarioBug& e) {
    return finish(Verdict::Error, std::string("scenario error: ") + e.what());
  } catch (const MatcherError& e) {
    return finish(Verdict::Error, std::string("scenario error: ") + e.what());
  } catch (const transport::TransportError& e) {
    return finish(Verdict::Error, "could not start the " + wording.target_noun + ": " + e.what());
  } catch (const std::exception& e) {
    return finish(Verdict::Error, std::string("harness error: ") + e.what());
  }
  if (end.error) return finish(Verdict::Error, *end.error);
  if (end.skip) return finish(Verdict::Skip, *end.skip);
  return finish(verdict_from(r.findings), "");
}

}  // namespace mcpspec::scenario
