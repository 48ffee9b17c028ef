#include "agent_errors.hpp"

namespace speckit {

mcpref::rpc::RpcError tool_failed(const std::string& tool, const std::string& directory, const std::string& message) {
  mcpref::Json data = mcpref::Json::object();
  data["tool"] = tool;
  data["spec_directory"] = directory;
  return mcpref::rpc::RpcError(kToolExecutionError, message, data);
}

}  // namespace speckit
