#!/bin/sh
# A tiny MCP server in POSIX sh for the runner tests. It answers initialize and ping, and
# misbehaves on ping in the one way FAKE_MODE names, so each monitor can be shown to catch its
# fault with a target that shares no code with mcpspec or with mcpspec-testserver.
#
#   FAKE_MODE     ok | garbage | unknown-id | duplicate | result-and-error | exit | silent |
#                 answer-then-notify
#   FAKE_VERSION  the protocolVersion initialize answers (default 2025-06-18)
#   FAKE_CAPS     the capabilities object initialize answers (default {"tools":{"listChanged":true}},
#                 which allows the list_changed notification of answer-then-notify)
#
# mcpspec writes compact JSON with sorted keys, so a request line starts with {"id":...,
# and sed can pick out the id (echoed verbatim, quotes and all) and the method.
mode=${FAKE_MODE:-ok}
version=${FAKE_VERSION:-2025-06-18}
caps=${FAKE_CAPS:-}
[ -n "$caps" ] || caps='{"tools":{"listChanged":true}}'

reply() { printf '{"jsonrpc":"2.0","id":%s,%s}\n' "$id" "$1"; }

answer_ping() {
  case "$mode" in
    ok) reply '"result":{}' ;;
    garbage) echo 'server ready (this line is not JSON)'; reply '"result":{}' ;;
    unknown-id) printf '{"jsonrpc":"2.0","id":4242,"result":{}}\n'; reply '"result":{}' ;;
    duplicate) reply '"result":{}'; reply '"result":{}' ;;
    result-and-error) reply '"result":{},"error":{"code":-32603,"message":"both at once"}' ;;
    exit) exit 0 ;;
    silent) ;;
    answer-then-notify)
      reply '"result":{}'
      printf '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n' ;;
    *) echo "fake_server: unknown FAKE_MODE $mode" >&2; exit 2 ;;
  esac
}

while IFS= read -r line; do
  id=$(printf '%s\n' "$line" | sed -n 's/^{"id":\([^,]*\),.*/\1/p')
  method=$(printf '%s\n' "$line" | sed -n 's/.*"method":"\([^"]*\)".*/\1/p')
  case "$method" in
    initialize)
      reply "\"result\":{\"protocolVersion\":\"$version\",\"capabilities\":$caps,\"serverInfo\":{\"name\":\"fake\",\"version\":\"1\"}}" ;;
    notifications/*) ;;
    ping) answer_ping ;;
    *) [ -n "$id" ] && reply '"error":{"code":-32601,"message":"method not found"}' ;;
  esac
done
