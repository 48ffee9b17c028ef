#pragma once
// HTTP-level faults of the test front: each breaks exactly one transport rule and names it.
#include <string>
#include <vector>

namespace httpfront {

struct Fault {
  const char* name;
  const char* requirement;  // the requirement id a harness must report
  const char* what;
};

const std::vector<Fault>& faults();
bool known_fault(const std::string& name);

}  // namespace httpfront
