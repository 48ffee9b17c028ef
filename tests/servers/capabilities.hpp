// Which features a run serves and which it declares in initialize. The two differ only under
// the *-without-capability faults; that difference is exactly the bug those faults inject.
#pragma once

#include "faults.hpp"
#include "json_text.hpp"
#include "options.hpp"
#include "protocol_version.hpp"

namespace testserver {

enum class Capability { tools, resources, prompts, logging, completions };

bool serves(const Options& opt, Capability cap);
bool declares(const Options& opt, Version v, Capability cap);

json capabilities_object(const Options& opt, Version v);
json server_info(Version v);

}  // namespace testserver
