#include "options.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <sstream>

namespace authtest {

const std::vector<std::string>& known_faults() {
  static const std::vector<std::string> names = {
      "no-401",                  // serves every request without a token
      "no-www-authenticate",     // 401 without a WWW-Authenticate header
      "no-resource-metadata",    // Bearer challenge without resource_metadata
      "challenge-no-scope",      // Bearer challenge without scope
      "prm-missing",             // no protected resource metadata anywhere
      "prm-wrong-resource",      // PRM resource on another origin
      "prm-no-authorization-servers",
      "result-in-401",           // a refused request still carries a JSON-RPC result
      "accept-invalid-token",    // any bearer token passes
      "accept-expired-token",    // expiry not checked
      "accept-other-audience",   // audience not checked
      "accept-query-token",      // ?access_token= accepted
      "no-invalid-token-error",  // 401 for a bad token without error="invalid_token"
      "low-scope-401",           // 401 instead of 403 for a missing scope
      "403-without-error",       // 403 without error="insufficient_scope"
      "as-no-s256",              // AS metadata offers only plain PKCE
      "as-wrong-issuer",         // AS metadata issuer differs from the issuer URL
      "as-no-cimd",              // AS metadata without client_id_metadata_document_supported
      "as-loose-redirect",       // /authorize redirects to any URI starting with a registered one
      "as-no-iss",               // /authorize redirects without iss (RFC 9207)
      "as-iss-unadvertised",     // iss in redirects, but authorization_response_iss_parameter_supported absent
      // With a trusted issuer (MCP_CONFORMANCE_AUTH_SERVER_URL), tokens checked by introspection:
      "accept-missing-audience",  // an introspected token without aud passes
      "accept-foreign-issuer",    // the introspected iss is not compared with the trusted issuer
      "403-wrong-scope",          // the 403 names mcp:read, not the scope the operation needs
  };
  return names;
}

namespace {

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "mcpspec-auth-testserver: " << problem << "\n"
            << "usage: mcpspec-auth-testserver [--port N] [--token VALUE=SCOPE,...[@AUDIENCE]]... "
               "[--expired-token VALUE]... [--fault NAME]... | --list-faults\n";
  std::exit(2);
}

std::string value_of(int& i, int argc, char** argv) {
  if (i + 1 >= argc) usage(std::string(argv[i]) + " needs a value");
  return argv[++i];
}

}  // namespace

Options parse_options(int argc, char** argv) {
  Options o;
  if (const char* p = std::getenv("PORT")) o.port = std::atoi(p);
  if (const char* issuer = std::getenv("MCP_CONFORMANCE_AUTH_SERVER_URL")) o.trusted_issuer = issuer;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--port") {
      o.port = std::atoi(value_of(i, argc, argv).c_str());
    } else if (a == "--token") {
      std::string spec = value_of(i, argc, argv);
      auto eq = spec.find('=');
      if (eq == std::string::npos || eq == 0) usage("--token " + spec + ": expected VALUE=SCOPE,...[@AUDIENCE]");
      TokenInfo t;
      std::string rest = spec.substr(eq + 1);
      if (auto at = rest.find('@'); at != std::string::npos) {
        t.audience = rest.substr(at + 1);
        rest = rest.substr(0, at);
      }
      std::stringstream ss(rest);
      for (std::string s; std::getline(ss, s, ',');)
        if (!s.empty()) t.scopes.insert(s);
      o.tokens[spec.substr(0, eq)] = t;
    } else if (a == "--expired-token") {
      TokenInfo t;
      t.scopes = {"mcp:read", "mcp:admin"};
      t.expired = true;
      o.tokens[value_of(i, argc, argv)] = t;
    } else if (a == "--list-faults") {
      for (const auto& f : known_faults()) std::cout << f << "\n";
      std::exit(0);
    } else if (a == "--fault") {
      std::string f = value_of(i, argc, argv);
      const auto& known = known_faults();
      if (std::find(known.begin(), known.end(), f) == known.end()) usage("unknown --fault " + f);
      o.faults.insert(f);
    } else {
      usage("unknown argument " + a);
    }
  }
  if (o.port <= 0 || o.port > 65535) usage("no port: give --port N or set PORT");
  return o;
}

}  // namespace authtest
