#include "outcome.hpp"

namespace testserver {

namespace {
std::string type_name(const json& v) {
  if (v.is_number_integer()) return "integer";
  if (v.is_number_float()) return "number";
  return v.type_name();
}
}  // namespace

const json* find_member(const json& params, std::string_view key) {
  auto it = params.find(key);
  return it == params.end() ? nullptr : &*it;
}

const std::string& require_string(const json& params, std::string_view key,
                                  std::string_view where) {
  const json* v = find_member(params, key);
  if (v == nullptr) {
    fail(rpc_code::invalid_params,
         std::string(where) + "." + std::string(key) + " is required");
  }
  if (!v->is_string()) {
    fail(rpc_code::invalid_params, std::string(where) + "." + std::string(key) +
                                       " must be a string, got " + type_name(*v));
  }
  return v->get_ref<const std::string&>();
}

const json& require_object(const json& params, std::string_view key, std::string_view where) {
  const json* v = find_member(params, key);
  if (v == nullptr) {
    fail(rpc_code::invalid_params,
         std::string(where) + "." + std::string(key) + " is required");
  }
  if (!v->is_object()) {
    fail(rpc_code::invalid_params, std::string(where) + "." + std::string(key) +
                                       " must be an object, got " + type_name(*v));
  }
  return *v;
}

const std::string* optional_string(const json& params, std::string_view key,
                                   std::string_view where) {
  const json* v = find_member(params, key);
  if (v == nullptr) return nullptr;
  if (!v->is_string()) {
    fail(rpc_code::invalid_params, std::string(where) + "." + std::string(key) +
                                       " must be a string, got " + type_name(*v));
  }
  return &v->get_ref<const std::string&>();
}

}  // namespace testserver
