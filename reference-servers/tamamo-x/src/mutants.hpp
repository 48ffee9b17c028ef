// Deliberate faults for proving the suites (test-only). The binary tamamo-x-mcp-mutant is built
// from the same sources with TAMAMO_MUTANTS defined and breaks one behaviour when the
// environment variable TAMAMO_MUTANT names it; the real tamamo-x-mcp has none of this code.
#pragma once

#ifdef TAMAMO_MUTANTS
#include <cstdlib>
#include <cstring>
#endif

namespace tamamo {

#ifdef TAMAMO_MUTANTS
inline bool mutant(const char* name) {
  const char* active = std::getenv("TAMAMO_MUTANT");
  return active != nullptr && std::strcmp(active, name) == 0;
}
#else
constexpr bool mutant(const char*) { return false; }
#endif

}  // namespace tamamo
