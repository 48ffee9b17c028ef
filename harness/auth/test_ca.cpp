#include "harness/auth/test_ca.hpp"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cstdio>
#include <memory>
#include <stdexcept>

namespace mcpspec::auth {

namespace {

using Key = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using Cert = std::unique_ptr<X509, decltype(&X509_free)>;

void need(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("test CA: ") + what + " failed");
}

Key new_key() {
  Key k(EVP_EC_gen("P-256"), EVP_PKEY_free);
  need(k != nullptr, "generating a P-256 key");
  return k;
}

// An X.509 v3 extension from its OpenSSL config text ("critical,CA:TRUE").
void add_ext(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
  need(ext != nullptr, "making a certificate extension");
  const bool ok = X509_add_ext(cert, ext, -1) == 1;
  X509_EXTENSION_free(ext);
  need(ok, "adding a certificate extension");
}

// A certificate for `key` named `cn`, signed by `issuer_key` (issuer null: self-signed).
Cert make_cert(EVP_PKEY* key, const char* cn, long serial, X509* issuer, EVP_PKEY* issuer_key, bool ca) {
  Cert c(X509_new(), X509_free);
  need(c != nullptr, "allocating a certificate");
  need(X509_set_version(c.get(), 2) == 1, "setting the version");
  need(ASN1_INTEGER_set(X509_get_serialNumber(c.get()), serial) == 1, "setting the serial");
  need(X509_gmtime_adj(X509_getm_notBefore(c.get()), -3600) != nullptr, "setting notBefore");
  need(X509_gmtime_adj(X509_getm_notAfter(c.get()), 7L * 24 * 3600) != nullptr, "setting notAfter");
  need(X509_set_pubkey(c.get(), key) == 1, "setting the public key");
  X509_NAME* name = X509_get_subject_name(c.get());
  need(X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("mcpspec test CA"),
                                  -1, -1, 0) == 1 &&
           X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(cn), -1, -1,
                                      0) == 1,
       "naming the subject");
  X509* signer = issuer ? issuer : c.get();
  need(X509_set_issuer_name(c.get(), X509_get_subject_name(signer)) == 1, "naming the issuer");
  if (ca) {
    add_ext(c.get(), signer, NID_basic_constraints, "critical,CA:TRUE");
    add_ext(c.get(), signer, NID_key_usage, "critical,keyCertSign,cRLSign");
  } else {
    add_ext(c.get(), signer, NID_basic_constraints, "critical,CA:FALSE");
    add_ext(c.get(), signer, NID_key_usage, "critical,digitalSignature");
    add_ext(c.get(), signer, NID_ext_key_usage, "serverAuth");
    add_ext(c.get(), signer, NID_subject_alt_name, "IP:127.0.0.1,DNS:localhost");
  }
  add_ext(c.get(), signer, NID_subject_key_identifier, "hash");
  need(X509_sign(c.get(), issuer_key ? issuer_key : key, EVP_sha256()) > 0, "signing the certificate");
  return c;
}

void write_pem(const std::string& path, X509* cert, EVP_PKEY* key) {
  std::unique_ptr<FILE, decltype(&std::fclose)> f(std::fopen(path.c_str(), "w"), std::fclose);
  if (!f) throw std::runtime_error("test CA: cannot write " + path);
  need(cert ? PEM_write_X509(f.get(), cert) == 1
            : PEM_write_PrivateKey(f.get(), key, nullptr, nullptr, 0, nullptr, nullptr) == 1,
       "writing a PEM file");
}

}  // namespace

TestCa make_test_ca(const std::string& dir) {
  Key ca_key = new_key(), server_key = new_key();
  Cert ca = make_cert(ca_key.get(), "mcpspec throwaway CA", 1, nullptr, nullptr, true);
  Cert server = make_cert(server_key.get(), "127.0.0.1", 2, ca.get(), ca_key.get(), false);
  TestCa out{dir + "/ca.pem", dir + "/server.pem", dir + "/server-key.pem"};
  write_pem(out.ca_cert, ca.get(), nullptr);
  write_pem(out.server_cert, server.get(), nullptr);
  write_pem(out.server_key, nullptr, server_key.get());
  return out;
}

}  // namespace mcpspec::auth
