#include "input_answer.hpp"

#include "elicitation_answer.hpp"
#include "responder.hpp"

namespace testclient {

using nlohmann::json;

std::optional<json> answer_input_request(const json& input_request, const json& declared, Fault fault) {
  if (!input_request.is_object()) return std::nullopt;
  const json method = input_request.value("method", json(""));
  const json params = input_request.contains("params") && input_request["params"].is_object() ? input_request["params"]
                                                                                              : json::object();
  if (method == "elicitation/create") return elicitation_answer(params, declared, fault);
  // Anything else is answered as the standalone server request would be.
  json as_request = {{"jsonrpc", "2.0"}, {"id", 0}, {"method", method}, {"params", params}};
  auto answer = answer_server_request(as_request, declared, fault);
  if (!answer || !answer->contains("result")) return std::nullopt;
  return (*answer)["result"];
}

}  // namespace testclient
