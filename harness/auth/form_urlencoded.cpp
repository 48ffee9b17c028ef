#include "harness/auth/form_urlencoded.hpp"

#include <httplib.h>

namespace mcpspec::auth {

std::optional<std::string> Form::get(const std::string& name) const {
  if (all.count(name) != 1) return std::nullopt;
  return all.find(name)->second;
}

std::vector<std::string> Form::repeated() const {
  std::vector<std::string> out;
  for (auto it = all.begin(); it != all.end(); it = all.upper_bound(it->first))
    if (all.count(it->first) > 1) out.push_back(it->first);
  return out;
}

Form parse_form(const std::string& text) {
  httplib::Params params;
  httplib::detail::parse_query_text(text, params);
  Form f;
  for (const auto& [k, v] : params) f.all.emplace(k, v);
  return f;
}

std::string percent_encode(const std::string& value) { return httplib::detail::encode_query_param(value); }

std::string write_form(const std::vector<std::pair<std::string, std::string>>& params) {
  std::string out;
  for (const auto& [k, v] : params) {
    if (!out.empty()) out += '&';
    out += percent_encode(k) + "=" + percent_encode(v);
  }
  return out;
}

}  // namespace mcpspec::auth
