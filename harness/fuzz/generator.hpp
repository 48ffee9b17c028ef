#pragma once
// Where fuzz messages come from: the protocol's own method table and schemas (params generated
// per method), the target's tools (arguments generated from each inputSchema), seed messages
// (our scenarios' `send` steps, --corpus), made-up methods, cancellation races and batches;
// then, most of the time, one or more mutations.
#include "harness/fuzz/fuzz_message.hpp"
#include "harness/fuzz/mutations.hpp"
#include "harness/fuzz/rng.hpp"
#include "harness/scenario/model.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace mcpspec::protocol {
class SchemaRegistry;
}

namespace mcpspec::fuzz {

struct GeneratorInputs {
  std::string version;                      // the negotiated version
  const protocol::SchemaRegistry* schemas = nullptr;
  nlohmann::json tools = nlohmann::json::array();   // from tools/list
  std::vector<nlohmann::json> seeds;        // whole messages to mutate
  scenario::CallTools call_tools = scenario::CallTools::ReadOnly;  // which tools may really be called
};

class Generator {
 public:
  explicit Generator(GeneratorInputs in);
  void set_tools(const nlohmann::json& tools);
  void set_version(const std::string& version);
  // The next message, or a small related group (a call and its cancellation, an interleaving).
  std::vector<FuzzMessage> next(Rng& rng);
  // Ids the target answered: an id game may reuse them.
  void note_answered(const nlohmann::json& id) { ids_.add(id); }
  std::size_t callable_tools() const { return callable_.size(); }

 private:
  nlohmann::json fresh_id(Rng& rng);
  nlohmann::json request(const std::string& method, nlohmann::json params, Rng& rng);
  nlohmann::json protocol_message(Rng& rng, std::string& origin);
  nlohmann::json tool_call(Rng& rng, std::string& origin);
  nlohmann::json params_for(const std::string& definition, const std::string& mode);
  FuzzMessage finish(nlohmann::json msg, std::string origin, Rng& rng, bool mutate);

  GeneratorInputs in_;
  nlohmann::json definitions_;                              // of in_.version
  struct MethodEntry { std::string name, kind, params; };
  std::vector<MethodEntry> methods_;                        // what a client may send
  std::vector<nlohmann::json> callable_;                    // tools we may call
  std::vector<std::string> all_tool_names_;
  std::map<std::string, nlohmann::json> params_cache_;      // definition|mode -> generated params
  long long next_id_ = 1000;
  IdPool ids_;
};

}  // namespace mcpspec::fuzz
