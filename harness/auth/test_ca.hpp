#pragma once
// A throwaway certificate authority for TLS mode (`run --client ... --auth --tls`,
// docs/authorization.md): a P-256 CA certificate and a server certificate it signs for 127.0.0.1
// and localhost, made with OpenSSL when a run starts and written as PEM files, so the mock
// authorization server and the protected endpoint can serve https and the client under test can
// be told to trust the CA (SSL_CERT_FILE, NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE).
#include <string>

namespace mcpspec::auth {

struct TestCa {
  std::string ca_cert;      // PEM file: the CA certificate a client trusts
  std::string server_cert;  // PEM file: the server certificate (CN 127.0.0.1; SAN IP 127.0.0.1, DNS localhost)
  std::string server_key;   // PEM file: its private key
};

// Writes ca.pem, server.pem and server-key.pem into `dir` (which must exist). Valid from an hour
// ago for 7 days. Throws std::runtime_error naming the step that failed.
TestCa make_test_ca(const std::string& dir);

}  // namespace mcpspec::auth
