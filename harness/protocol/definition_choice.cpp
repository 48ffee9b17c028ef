#include "harness/protocol/definition_choice.hpp"

#include "harness/jsonschema/check.hpp"

#include <set>
#include <utility>

namespace mcpspec::protocol::detail {

using nlohmann::json;

namespace {

class Check {
 public:
  Check(const VersionData& vd, ValidationOutcome& out) : vd_(vd), out_(out) {}

  void issue(std::string pointer, std::string message) {
    out_.valid = false;
    out_.issues.push_back({std::move(pointer), std::move(message)});
  }

  void against(std::string_view definition, const json& value, const std::string& prefix) {
    const valijson::Subschema* schema = vd_.definition(definition);
    if (schema == nullptr) {
      issue(prefix, "no definition named '" + std::string(definition) + "' in " + vd_.origin);
      return;
    }
    // Our own schemas are trusted (fuzzed at every depth the reader accepts); a user's file is
    // checked against its bounds. One budget for all the definitions one message is checked against.
    SchemaCheck check = check_against(*schema, vd_.builtin ? nullptr : &vd_.bounds, value, budget_, 8, prefix);
    if (!check.unchecked.empty()) {
      // A check mcpspec cannot make says nothing about the message (ValidationOutcome::unchecked).
      out_.unchecked.push_back((prefix.empty() ? std::string() : prefix + ": ") + std::string(definition) + ": " +
                               check.unchecked);
      return;
    }
    if (check.conforms) return;
    out_.valid = false;
    for (auto& i : check.issues) out_.issues.push_back(std::move(i));
  }

  void single(const json& message, Sender sender, std::string_view answered, const std::string& prefix) {
    if (!message.is_object()) {
      out_.definition = vd_.envelope.any;
      issue(prefix, std::string("a JSON-RPC message must be an object, found ") + message.type_name());
      return;
    }
    if (message.contains("method")) {
      call(message, sender, prefix);
    } else if (message.contains("result") && message.contains("error")) {
      out_.definition = vd_.envelope.any;
      if (vd_.builtin) issue(prefix, "a response carries result or error, never both");
      against(vd_.envelope.any, message, prefix);
    } else if (message.contains("error")) {
      out_.definition = vd_.envelope.error_response;
      against(vd_.envelope.error_response, message, prefix);
    } else if (message.contains("result")) {
      response(message, sender, answered, prefix);
    } else {
      out_.definition = vd_.envelope.any;
      issue(prefix, "not a JSON-RPC message: it has none of method, result and error");
    }
  }

 private:
  void call(const json& message, Sender sender, const std::string& prefix) {
    const bool has_id = message.contains("id");
    const std::string& envelope = has_id ? vd_.envelope.request : vd_.envelope.notification;
    const json& method_value = *message.find("method");
    const MethodEntry* m = method_value.is_string() ? vd_.method(method_value.get_ref<const std::string&>()) : nullptr;
    if (m == nullptr) {  // unknown methods are a protocol matter; the envelope must still hold
      out_.definition = envelope;
      against(envelope, message, prefix);
      return;
    }
    const std::string& name = m->info.name;
    if (m->info.kind == "request" && !has_id) {
      out_.definition = envelope;
      issue(prefix, "'" + name + "' is a request, so it needs an id");
      against(envelope, message, prefix);
      return;
    }
    if (m->info.kind == "notification" && has_id) {
      out_.definition = envelope;
      issue(prefix + "/id", "'" + name + "' is a notification and must not carry an id");
      against(envelope, message, prefix);
      return;
    }
    const char* who = sender_name(sender);
    if (m->info.from != "both" && m->info.from != who) {
      issue(prefix + "/method", "'" + name + "' is sent by the " + m->info.from + ", not by the " + who);
    }
    out_.definition = m->message_def;
    if (!vd_.message_defs_have_envelope) against(envelope, message, prefix);
    against(m->message_def, message, prefix);
  }

  void response(const json& message, Sender sender, std::string_view answered, const std::string& prefix) {
    out_.definition = vd_.envelope.result_response;
    against(vd_.envelope.result_response, message, prefix);
    if (answered.empty()) return;
    const MethodEntry* m = vd_.method(answered);
    if (m == nullptr) return;  // unknown method: the generic result is all we can check
    if (m->info.kind == "notification") {
      issue(prefix, "'" + m->info.name + "' is a notification; nothing answers it");
      return;
    }
    const char* who = sender_name(sender);
    if (m->info.from == who) {
      issue(prefix, "'" + m->info.name + "' is sent by the " + m->info.from + ", so its response cannot come from the " + who);
    }
    const json& result = *message.find("result");
    if (!result.is_object() || m->info.result.empty()) return;
    std::string definition = m->info.result;
    // A request run as a task is answered with the task, not with its eventual result.
    if (!m->task_result.empty() && result.contains("task")) definition = m->task_result;
    out_.definition = definition;
    against(definition, result, prefix + "/result");
  }

  const VersionData& vd_;
  ValidationOutcome& out_;
  ValidationBudget budget_;
};

void tidy(ValidationOutcome& out) {
  std::set<std::pair<std::string, std::string>> seen;
  std::vector<SchemaIssue> unique;
  for (auto& i : out.issues) {
    if (seen.emplace(i.pointer, i.message).second) unique.push_back(std::move(i));
  }
  out.issues = std::move(unique);
  if (!out.issues.empty()) out.valid = false;
}

}  // namespace

ValidationOutcome check_message(const VersionData& vd_ref, const json& message, Sender sender,
                                std::string_view answered_method) {
  ValidationOutcome out;
  const VersionData* vd = &vd_ref;
  Check check(*vd, out);
  if (!message.is_array()) {
    check.single(message, sender, answered_method, "");
    tidy(out);
    return out;
  }
  if (vd->builtin && !vd->batches) {
    out.definition = "Message";
    check.issue("", "a batch (JSON array) is not allowed in protocol version " + vd->version +
                        "; only 2025-03-26 defines batches");
    return out;
  }
  const std::string batch = vd->builtin ? "RpcBatch" : vd->envelope.any;
  if (vd->builtin) {
    // Said directly rather than through RpcBatch, whose if/then verdicts read poorly here.
    std::size_t calls = 0;
    for (const auto& item : message) calls += item.is_object() && item.contains("method") ? 1 : 0;
    if (message.empty()) check.issue("", "a batch must hold at least one message");
    if (calls != 0 && calls != message.size()) {
      check.issue("", "a batch holds requests and notifications, or responses, never both");
    }
  } else {
    check.against(batch, message, "");
    if (!out.valid) {  // the user's schema refuses the array as a whole
      out.definition = batch;
      tidy(out);
      return out;
    }
  }
  for (std::size_t i = 0; i < message.size(); ++i) {
    const std::string prefix = "/" + std::to_string(i);
    const json& item = message[i];
    if (vd->builtin && item.is_object() && item.contains("method") && *item.find("method") == "initialize") {
      check.issue(prefix + "/method", "initialize must not be part of a batch");
    }
    check.single(item, sender, {}, prefix);
  }
  out.definition = batch;
  tidy(out);
  return out;
}


ValidationOutcome check_definition(const VersionData& vd, const json& value, std::string_view definition) {
  ValidationOutcome out;
  out.definition = std::string(definition);
  Check(vd, out).against(definition, value, "");
  tidy(out);
  return out;
}

}  // namespace mcpspec::protocol::detail
