"""JSON-RPC 2.0 envelope as MCP uses it, plus the generic params/result shapes every method shares.

Decisions that differ from the official schema files (see docs/schemas.md):
* 2026-07-28: requests and notifications of methods the protocol removed (initialize, ping,
  logging/setLevel, ...) are invalid, not unknown; an input-required result names at least one of
  inputRequests and requestState;
* an error response may carry "id": null in every version (JSON-RPC 2.0 answers an unreadable
  request that way); from 2025-11-25 the id may also be left out, as that version allows;
* the four message kinds exclude each other: a notification has no id, a request or notification
  has no result/error, a response has no method, and a response never has both result and error;
* a batch (2025-03-26 only) holds at least one message.
"""

from core import (Definitions, array, const, described, enum, integer, obj, open_object, ref, string,
                  when)


def request_params(v, desc, props, required=()):
    """Params of a request: any request may carry _meta (with a progress token). From 2026-07-28
    every request carries its protocol version and client capabilities in _meta, so _meta is
    required and params with it."""
    if v.modern:
        return obj(desc, {"_meta": ref("RequestMeta"), **props}, ["_meta", *required])
    return obj(desc, {"_meta": ref("RequestMeta"), **props}, required)


def notification_params(v, desc, props, required=()):
    return obj(desc, {"_meta": ref("NotificationMeta" if v.modern else "Meta"), **props}, required)


def result(v, desc, props, required=()):
    """A final result. From 2026-07-28 it says so: resultType "complete" (other values are an
    input-required interim result or an extension's, which have their own definitions)."""
    if v.modern:
        return obj(desc, {"_meta": ref("ResultMeta"), "resultType": const("complete"), **props},
                   ["resultType", *required])
    return obj(desc, {"_meta": ref("Meta"), **props}, required)


# 2026-07-28 caching hints: how long, and for whom, a client may reuse a list, read or discover
# result. Required on those results (the schema says so; A8 in the checklist notes a page that
# still describes them as optional).
CACHE_REQUIRED = ["ttlMs", "cacheScope"]


def cache_hints(v):
    if not v.modern:
        return {}
    return {
        "ttlMs": integer("Milliseconds the result stays fresh after receipt; 0: stale at once.", minimum=0),
        "cacheScope": enum(["public", "private"], "Who may share a cached copy."),
    }


def cache_required(v):
    return CACHE_REQUIRED if v.modern else []


NOT_ALLOWED = False  # a member that must not appear in this kind of message

# Methods 2026-07-28 removed without a successor under the same name. A modern peer that sends
# one is not calling an unknown method: it is speaking the legacy protocol, so the schema of the
# modern version rejects it (tasks/get and tasks/cancel live on in the tasks extension).
REMOVED_REQUESTS = ["initialize", "ping", "logging/setLevel", "resources/subscribe",
                    "resources/unsubscribe", "tasks/result", "tasks/list"]
REMOVED_NOTIFICATIONS = ["notifications/initialized", "notifications/roots/list_changed",
                         "notifications/elicitation/complete", "notifications/tasks/status"]


def method_name(v, desc, removed):
    out = string(desc)
    if v.modern:
        out["not"] = {"enum": removed}
    return out


def define_modern_meta(d):
    """The reserved _meta members of 2026-07-28: what a request, a notification and a result
    carry about the protocol, now that no handshake carries it once."""
    d.add("RequestMeta", obj(
        "_meta of a request: the protocol version and client capabilities this request is made with.", {
            "progressToken": ref("ProgressToken"),
            "io.modelcontextprotocol/protocolVersion": string("Protocol version of this request."),
            "io.modelcontextprotocol/clientCapabilities": described(
                "What the client supports for this request; {} declares nothing optional.",
                ref("ClientCapabilities")),
            "io.modelcontextprotocol/clientInfo": described("The client program.", ref("Implementation")),
            "io.modelcontextprotocol/logLevel": described(
                "Least severe log level the client wants for this request; absent: no log messages.",
                ref("LoggingLevel")),
        }, ["io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities"]))
    d.add("NotificationMeta", obj("_meta of a notification.", {
        "io.modelcontextprotocol/subscriptionId": described(
            "id of the subscriptions/listen request whose stream carries this notification.",
            ref("RequestId")),
    }))
    d.add("ResultMeta", obj("_meta of a result.", {
        "io.modelcontextprotocol/serverInfo": described("The server program.", ref("Implementation")),
    }))
    # Notifications that flow only on a subscriptions/listen stream must name it.
    d.add("ListenNotificationMeta", obj("_meta of a notification on a subscriptions/listen stream.", {
        "io.modelcontextprotocol/subscriptionId": described(
            "id of the subscriptions/listen request (same JSON type).", ref("RequestId")),
    }, ["io.modelcontextprotocol/subscriptionId"]))


def error_data_rules(error):
    """2026-07-28 errors whose data the client acts on: what capability was missing, which
    versions the server speaks. Written as an if/then chain on the code, like content blocks."""
    missing_capability = {"required": ["data"], "properties": {"data": obj(
        "What the request would have needed.",
        {"requiredCapabilities": ref("ClientCapabilities")}, ["requiredCapabilities"])}}
    unsupported_version = {"required": ["data"], "properties": {"data": obj(
        "The versions the server speaks, and the one asked for.",
        {"supported": array(string()), "requested": string()}, ["supported", "requested"])}}
    error["if"] = {"required": ["code"], "properties": {"code": {"const": -32021}}}
    error["then"] = missing_capability
    error["else"] = {"if": {"required": ["code"], "properties": {"code": {"const": -32022}}},
                     "then": unsupported_version}


def define(v, d: Definitions):
    d.add("RequestId", {
        "description": "Identifies a request within a session; never null in a request.",
        "type": ["string", "integer"],
    })
    d.add("ProgressToken", {
        "description": "Chosen by the requester to tie progress notifications to its request.",
        "type": ["string", "integer"],
    })
    d.add("Cursor", string("Opaque pagination position handed out by the server."))

    meta_members = {}
    if v.only("2025-11-25"):
        meta_members["io.modelcontextprotocol/related-task"] = ref("RelatedTaskMetadata")
    d.add("Meta", obj("The _meta member: free-form, but always an object.", meta_members))
    if v.modern:
        define_modern_meta(d)
    else:
        d.add("RequestMeta", obj(
            "_meta of a request; may name a progress token.",
            {"progressToken": ref("ProgressToken"), **meta_members}))

    d.add("RequestParams", request_params(v, "Params of a request that takes no arguments.", {}))
    d.add("NotificationParams", notification_params(v, "Params of a notification without arguments.", {}))
    d.add("PaginatedParams", request_params(v,
        "Params of a list request.", {"cursor": described("Where to continue listing.", ref("Cursor"))}))

    if v.modern:
        d.add("Result", obj("Any result: an object that says what kind of result it is.", {
            "_meta": ref("ResultMeta"),
            "resultType": string("complete, input_required, or a value an extension defines."),
        }, ["resultType"]))
        d.add("EmptyResult", result(v, "A final result with no members of its own.", {}))
    else:
        d.add("Result", result(v, "Any result: an object, optionally with _meta.", {}))
        d.add("EmptyResult", described("A result with no members of its own.", ref("Result")))
    d.add("PaginatedResult", result(v,
        "Result of a list request.", {"nextCursor": described("Present when more items follow.", ref("Cursor"))}))

    error = obj("The error member of an error response.", {
        "code": integer("Error code (JSON-RPC or MCP-defined)."),
        "message": string("Short human-readable summary."),
        "data": {"description": "Optional extra detail, any JSON value."},
    }, ["code", "message"])
    if v.modern:
        error_data_rules(error)
    elif v.since("2025-11-25"):
        # URL_ELICITATION_REQUIRED must list the elicitations the client has to complete.
        error["if"] = {"required": ["code"], "properties": {"code": {"const": -32042}}}
        error["then"] = {"required": ["data"], "properties": {"data": obj(
            "Elicitations that must complete before the request can succeed.",
            {"elicitations": array(ref("ElicitUrlParams"))}, ["elicitations"])}}
    d.add("RpcError", error)

    if v.modern:
        d.add("RpcParams", obj("Params of a request of any method: _meta, when present, is an object.",
                               {"_meta": ref("Meta")}))
    jsonrpc = const("2.0", "Protocol marker; always the string 2.0.")
    d.add("RpcRequest", obj("A request: expects exactly one response with the same id.", {
        "jsonrpc": jsonrpc,
        "id": ref("RequestId"),
        "method": method_name(v, "Name of the method to invoke.", REMOVED_REQUESTS),
        # The generic envelope checks _meta's type only: which fields a request of an unknown
        # method needs is for its receiver to say (-32601 comes first).
        "params": ref("RpcParams" if v.modern else "RequestParams"),
        "result": NOT_ALLOWED,
        "error": NOT_ALLOWED,
    }, ["jsonrpc", "id", "method"]))
    d.add("RpcNotification", obj("A notification: one-way, never answered, carries no id.", {
        "jsonrpc": jsonrpc,
        "id": NOT_ALLOWED,
        "method": method_name(v, "Name of the notification.", REMOVED_NOTIFICATIONS),
        "params": ref("NotificationParams"),
        "result": NOT_ALLOWED,
        "error": NOT_ALLOWED,
    }, ["jsonrpc", "method"]))
    d.add("RpcResultResponse", obj("A successful response.", {
        "jsonrpc": jsonrpc,
        "id": described("The id of the request being answered.", ref("RequestId")),
        "result": ref("Result"),
        "method": NOT_ALLOWED,
        "error": NOT_ALLOWED,
    }, ["jsonrpc", "id", "result"]))
    error_id = {
        "description": "The id of the failed request, or null when it could not be read.",
        "type": ["string", "integer", "null"],
    }
    d.add("RpcErrorResponse", obj("A failed response.", {
        "jsonrpc": jsonrpc,
        "id": error_id,
        "error": ref("RpcError"),
        "method": NOT_ALLOWED,
        "result": NOT_ALLOWED,
    }, ["jsonrpc", "error"] + ([] if v.since("2025-11-25") else ["id"])))

    d.add("RpcSingleMessage", {
        "description": "One JSON-RPC message; its members decide which kind it must be.",
        "type": "object",
        "if": {"required": ["method"]},
        "then": {"if": {"required": ["id"]}, "then": ref("RpcRequest"), "else": ref("RpcNotification")},
        "else": {"if": {"required": ["error"]}, "then": ref("RpcErrorResponse"),
                 "else": ref("RpcResultResponse")},
    })

    if v.only("2025-03-26"):
        d.add("RpcBatchRequest", array({
            "type": "object",
            "required": ["method"],
            "if": {"required": ["id"]}, "then": ref("RpcRequest"), "else": ref("RpcNotification"),
        }, "Several requests and notifications sent as one array.", minItems=1))
        d.add("RpcBatchResponse", array({
            "type": "object",
            "if": {"required": ["error"]}, "then": ref("RpcErrorResponse"),
            "else": ref("RpcResultResponse"),
        }, "The responses to a batch, as one array.", minItems=1))
        d.add("RpcBatch", {
            "description": "A batch: all requests/notifications, or all responses.",
            "type": "array",
            "if": {"items": {"required": ["method"]}},
            "then": ref("RpcBatchRequest"),
            "else": ref("RpcBatchResponse"),
        })
        d.add("Message", {
            "description": "Anything that may travel as one frame: a message or a batch.",
            "if": {"type": "array"}, "then": ref("RpcBatch"), "else": ref("RpcSingleMessage"),
        })
    else:
        d.add("Message", described("Anything that may travel as one frame: one message.",
                                   ref("RpcSingleMessage")))


def message(d, name, envelope, method, params_def, params_required, desc):
    """A complete request or notification for one method: the envelope's members, the method as a
    constant and the method's params. Flat rather than allOf [envelope, body]: one pass, and issues
    point at the member that is wrong."""
    base = d.table[envelope]
    out = {"description": desc, "type": "object"}
    out["properties"] = {**base["properties"], "method": const(method), "params": ref(params_def)}
    out["required"] = base["required"] + (["params"] if params_required else [])
    d.add(name, out)


__all__ = ["define", "message", "request_params", "notification_params", "result", "when",
           "open_object"]
