#include "harness/protocol/message.hpp"

#include <cstdint>
#include <string>

namespace mcpspec::protocol {

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Request: return "request";
    case Kind::Notification: return "notification";
    case Kind::Result: return "result";
    case Kind::Error: return "error";
    case Kind::Batch: return "batch";
    case Kind::Invalid: return "invalid";
  }
  return "invalid";
}

std::string id_key(const nlohmann::json& id) {
  if (id.is_string()) return "s:" + id.get<std::string>();
  // The same decimal text as dump(), without a serializer per call: ids are keyed on every
  // message by the monitors and every wait (the top cost per small message, bench/message-overhead).
  if (id.is_number_unsigned()) return "i:" + std::to_string(id.get<std::uint64_t>());
  if (id.is_number_integer()) return "i:" + std::to_string(id.get<std::int64_t>());
  if (id.is_null()) return "n:null";
  return "o:" + id.dump();
}

Classified classify(const nlohmann::json& m) {
  Classified c;
  if (m.is_array()) {
    c.kind = Kind::Batch;
    if (m.empty()) c.problems.push_back("empty batch array");
    return c;
  }
  if (!m.is_object()) {
    c.problems.push_back(std::string("message is a JSON ") + m.type_name() + ", not an object");
    return c;
  }
  auto jr = m.find("jsonrpc");
  if (jr == m.end()) {
    c.problems.push_back("missing \"jsonrpc\": \"2.0\"");
  } else if (!jr->is_string() || jr->get_ref<const std::string&>() != "2.0") {
    c.problems.push_back("\"jsonrpc\" is " + jr->dump() + ", not \"2.0\"");
  }
  auto id = m.find("id");
  if (id != m.end()) c.id = *id;
  auto method = m.find("method");
  bool has_result = m.contains("result");
  bool has_error = m.contains("error");
  if (method != m.end()) {
    if (!method->is_string()) {
      c.problems.push_back("\"method\" is not a string");
      return c;
    }
    c.method = method->get<std::string>();
    if (has_result || has_error) c.problems.push_back("a request or notification carries result/error");
    if (id == m.end()) {
      c.kind = Kind::Notification;
    } else {
      c.kind = Kind::Request;
      if (!(id->is_string() || id->is_number_integer() || id->is_number_unsigned()))
        c.problems.push_back("request id is " + std::string(id->type_name()) + ", not a string or integer");
    }
    auto params = m.find("params");
    if (params != m.end() && !params->is_object() && !params->is_array())
      c.problems.push_back("\"params\" is not an object");
    return c;
  }
  if (has_result && has_error) {
    c.kind = Kind::Result;
    c.problems.push_back("response carries both \"result\" and \"error\"");
  } else if (has_result) {
    c.kind = Kind::Result;
  } else if (has_error) {
    c.kind = Kind::Error;
    const auto& e = m["error"];
    if (!e.is_object() || !e.contains("code") || !e["code"].is_number_integer() || !e.contains("message") ||
        !e["message"].is_string())
      c.problems.push_back("\"error\" needs an integer \"code\" and a string \"message\"");
  } else {
    c.problems.push_back("neither a request (method) nor a response (result/error)");
    return c;
  }
  if (id == m.end()) {
    if (c.kind == Kind::Result) c.problems.push_back("response has no \"id\"");
  } else if (!(id->is_string() || id->is_number_integer() || id->is_number_unsigned() || id->is_null())) {
    c.problems.push_back("response id is " + std::string(id->type_name()) + ", not a string, integer or null");
  }
  return c;
}

std::vector<std::string> envelope_requirements(const std::string& problem) {
  if (problem.find("both") != std::string::npos) return {"BASE-11"};
  if (problem.find("\"error\" needs") != std::string::npos) return {"BASE-09", "BASE-10"};
  if (problem.find("request id is null") != std::string::npos) return {"BASE-04", "BASE-03"};
  if (problem.find("request id") != std::string::npos) return {"BASE-03", "BASE-04"};
  if (problem.find("response has no") != std::string::npos) return {"BASE-06"};
  return {"BASE-01"};
}

}  // namespace mcpspec::protocol
