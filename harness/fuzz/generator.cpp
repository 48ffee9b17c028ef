#include "harness/fuzz/generator.hpp"

#include "harness/protocol/schema_registry.hpp"
#include "harness/scenario/substitute.hpp"
#include "harness/util/resources.hpp"

namespace mcpspec::fuzz {

using nlohmann::json;

namespace {
const std::vector<std::string> kModes = {"minimal", "minimal", "full", "wrong-type", "missing-required"};
}

Generator::Generator(GeneratorInputs in) : in_(std::move(in)) {
  set_version(in_.version);
  set_tools(in_.tools);
}

void Generator::set_version(const std::string& version) {
  in_.version = version;
  methods_.clear();
  params_cache_.clear();
  definitions_ = json::object();
  if (auto text = resources::find("harness/protocol/schemas/" + version + "/messages.schema.json")) {
    json doc = json::parse(*text, nullptr, false);
    if (doc.is_object() && doc.contains("definitions")) definitions_ = doc["definitions"];
  }
  for (const auto& m : in_.schemas->methods(version)) {
    if (m.from == "server") continue;
    methods_.push_back({m.name, m.kind, m.params});
  }
}

void Generator::set_tools(const json& tools) {
  callable_.clear();
  all_tool_names_.clear();
  if (!tools.is_array()) return;
  for (const auto& t : tools) {
    if (!t.is_object() || !t.contains("name") || !t["name"].is_string()) continue;
    all_tool_names_.push_back(t["name"]);
    bool read_only = t.contains("annotations") && t["annotations"].is_object() &&
                     t["annotations"].value("readOnlyHint", false) == true;
    if (in_.call_tools == scenario::CallTools::All || (in_.call_tools == scenario::CallTools::ReadOnly && read_only))
      callable_.push_back(t);
  }
}

json Generator::fresh_id(Rng& rng) {
  long long n = next_id_++;
  return rng.chance(20) ? json("f-" + std::to_string(n)) : json(n);
}

json Generator::request(const std::string& method, json params, Rng& rng) {
  json m = {{"jsonrpc", "2.0"}, {"id", fresh_id(rng)}, {"method", method}};
  if (!params.is_null()) m["params"] = std::move(params);
  return m;
}

json Generator::params_for(const std::string& definition, const std::string& mode) {
  if (definition.empty()) return nullptr;
  std::string key = definition + "|" + mode;
  if (auto it = params_cache_.find(key); it != params_cache_.end()) return it->second;
  json out = nullptr;
  try {
    json schema = {{"$ref", "#/definitions/" + definition}, {"definitions", definitions_}};
    out = scenario::generate_arguments(schema, mode);
  } catch (const std::exception&) {
    out = json::object();  // a definition our generator cannot satisfy: empty params still probe
  }
  params_cache_[key] = out;
  return out;
}

json Generator::protocol_message(Rng& rng, std::string& origin) {
  if (methods_.empty()) return request("ping", nullptr, rng);
  const auto& m = methods_[rng.below(methods_.size())];
  const std::string& mode = rng.pick(kModes);
  json params = params_for(m.params, mode);
  origin = m.name + " (" + mode + " params)";
  if (m.kind == "notification") {
    json n = {{"jsonrpc", "2.0"}, {"method", m.name}};
    if (!params.is_null()) n["params"] = params;
    return n;
  }
  return request(m.name, params, rng);
}

json Generator::tool_call(Rng& rng, std::string& origin) {
  if (callable_.empty()) {
    // No tool we may run: ask for tools that do not exist (or whose name is mangled).
    std::string name = all_tool_names_.empty() ? "mcpspec_fuzz_no_such_tool" : rng.pick(all_tool_names_) + "_nope";
    origin = "tools/call unknown tool";
    return request("tools/call", {{"name", name}, {"arguments", json::object()}}, rng);
  }
  const json& tool = callable_[rng.below(callable_.size())];
  const std::string& mode = rng.pick(kModes);
  json args = json::object();
  if (tool.contains("inputSchema")) {
    try {
      args = scenario::generate_arguments(tool["inputSchema"], mode);
    } catch (const std::exception&) {
      args = json::object();
    }
  }
  origin = "tools/call " + tool["name"].get<std::string>() + " (" + mode + " arguments)";
  if (args.is_object() && rng.chance(30)) origin += " | " + mutate_argument(args, rng);
  return request("tools/call", {{"name", tool["name"]}, {"arguments", args}}, rng);
}

FuzzMessage Generator::finish(json msg, std::string origin, Rng& rng, bool mutate) {
  std::string bytes;
  if (mutate && rng.chance(75)) {
    int n = 1 + static_cast<int>(rng.below(rng.chance(70) ? 1 : 3));
    for (int i = 0; i < n && bytes.empty(); ++i) origin += " | " + mutate_json(msg, bytes, rng, ids_);
  }
  // Text made from `msg` as it stands is described from `msg`; text a mutation wrote or changed
  // is read back, as the target will read it.
  bool from_msg = bytes.empty();
  if (from_msg) bytes = msg.dump(-1, ' ', false, json::error_handler_t::replace);
  if (mutate && rng.chance(12)) {
    origin += " | " + mutate_bytes(bytes, rng);
    from_msg = false;
  }
  if (from_msg) return describe_message(msg, std::move(bytes), std::move(origin), in_.version, *in_.schemas);
  return describe_message(std::move(bytes), std::move(origin), in_.version, *in_.schemas);
}

std::vector<FuzzMessage> Generator::next(Rng& rng) {
  std::vector<FuzzMessage> out;
  std::string origin;
  std::size_t roll = rng.below(100);
  if (roll < 35) {
    json m = protocol_message(rng, origin);
    out.push_back(finish(std::move(m), origin, rng, true));
  } else if (roll < 60) {
    json m = tool_call(rng, origin);
    out.push_back(finish(std::move(m), origin, rng, true));
  } else if (roll < 72 && !in_.seeds.empty()) {
    json m = in_.seeds[rng.below(in_.seeds.size())];
    if (m.is_object() && m.contains("id")) m["id"] = fresh_id(rng);
    out.push_back(finish(std::move(m), "seed", rng, true));
  } else if (roll < 77) {
    std::string name = "mcpspec.fuzz/unknown-" + std::to_string(rng.below(100));
    bool notify = rng.chance(30);
    json m = notify ? json{{"jsonrpc", "2.0"}, {"method", name}} : request(name, json::object(), rng);
    out.push_back(finish(std::move(m), notify ? "unknown notification" : "unknown method", rng, false));
  } else if (roll < 84) {
    // Cancellation race: a request and its cancellation back to back (sometimes the cancellation
    // first, for an id not sent yet), so the target sees both before it has answered.
    json call = callable_.empty() || rng.chance(40) ? request("ping", nullptr, rng) : tool_call(rng, origin);
    json cancel = {{"jsonrpc", "2.0"},
                   {"method", "notifications/cancelled"},
                   {"params", {{"requestId", call["id"]}, {"reason", "mcpspec fuzz race"}}}};
    bool cancel_first = rng.chance(25);
    FuzzMessage a = describe_message(call, "cancellation race: request", in_.version, *in_.schemas);
    FuzzMessage b = describe_message(cancel, "cancellation race: cancel", in_.version, *in_.schemas);
    if (cancel_first) {
      out.push_back(std::move(b));
      out.push_back(std::move(a));
    } else {
      out.push_back(std::move(a));
      out.push_back(std::move(b));
    }
  } else if (roll < 90) {
    json m = request("ping", rng.chance(50) ? json(nullptr) : json::object(), rng);
    out.push_back(finish(std::move(m), "ping", rng, true));
  } else if (roll < 94) {
    // A batch (JSON-RPC arrays; MCP 2025-03-26 only, so a plain -32600 elsewhere).
    json batch = json::array();
    std::size_t n = 1 + rng.below(4);
    for (std::size_t i = 0; i < n; ++i) batch.push_back(protocol_message(rng, origin));
    out.push_back(finish(std::move(batch), "batch of " + std::to_string(n), rng, rng.chance(30)));
  } else {
    // Interleaving: a burst of unrelated messages written at once.
    std::size_t n = 2 + rng.below(5);
    for (std::size_t i = 0; i < n; ++i) {
      json m = rng.chance(50) ? protocol_message(rng, origin) : tool_call(rng, origin);
      out.push_back(finish(std::move(m), "burst: " + origin, rng, rng.chance(50)));
    }
  }
  return out;
}

}  // namespace mcpspec::fuzz
