// The faults only a live fuzzer is expected to find: each needs input the generic suite never
// sends (deep nesting, long strings, control characters in method names, odd params on ping).
#pragma once

#include "faults.hpp"
#include "json_text.hpp"
#include "wire.hpp"

namespace testserver {

// Applies the fuzz-only fault `fault` to one incoming message object. Returns true when the fault
// took the message over (the caller must not answer it); may not return at all (crash, hang).
bool apply_fuzz_fault(Fault fault, const json& message, Wire& wire);

}  // namespace testserver
