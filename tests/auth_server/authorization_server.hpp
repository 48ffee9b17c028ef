#pragma once
// The test server's own authorization server (it is its own issuer): RFC 8414 metadata, dynamic
// registration, and an authorize endpoint that redirects only to a registered redirect URI. Enough
// for the harness's §3 checks; it issues no usable tokens (the token table is static).
#include "options.hpp"
#include "resource_layer.hpp"

#include <httplib.h>

namespace authtest {

void add_authorization_server(httplib::Server& server, const Options& o, const Urls& urls);

}  // namespace authtest
