"""JSON-RPC 2.0 envelope as MCP uses it, plus the generic params/result shapes every method shares.

Decisions that differ from the official schema files (see docs/schemas.md):
* an error response may carry "id": null in every version (JSON-RPC 2.0 answers an unreadable
  request that way); from 2025-11-25 the id may also be left out, as that version allows;
* the four message kinds exclude each other: a notification has no id, a request or notification
  has no result/error, a response has no method, and a response never has both result and error;
* a batch (2025-03-26 only) holds at least one message.
"""

from core import (Definitions, array, const, described, integer, obj, open_object, ref, string,
                  when)


def request_params(desc, props, required=()):
    """Params of a request: any request may carry _meta (with a progress token)."""
    return obj(desc, {"_meta": ref("RequestMeta"), **props}, required)


def notification_params(desc, props, required=()):
    return obj(desc, {"_meta": ref("Meta"), **props}, required)


def result(desc, props, required=()):
    return obj(desc, {"_meta": ref("Meta"), **props}, required)


NOT_ALLOWED = False  # a member that must not appear in this kind of message


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
    if v.since("2025-11-25"):
        meta_members["io.modelcontextprotocol/related-task"] = ref("RelatedTaskMetadata")
    d.add("Meta", obj("The _meta member: free-form, but always an object.", meta_members))
    d.add("RequestMeta", obj(
        "_meta of a request; may name a progress token.",
        {"progressToken": ref("ProgressToken"), **meta_members}))

    d.add("RequestParams", request_params("Params of a request that takes no arguments.", {}))
    d.add("NotificationParams", notification_params("Params of a notification without arguments.", {}))
    d.add("PaginatedParams", request_params(
        "Params of a list request.", {"cursor": described("Where to continue listing.", ref("Cursor"))}))

    d.add("Result", result("Any result: an object, optionally with _meta.", {}))
    d.add("EmptyResult", described("A result with no members of its own.", ref("Result")))
    d.add("PaginatedResult", result(
        "Result of a list request.", {"nextCursor": described("Present when more items follow.", ref("Cursor"))}))

    error = obj("The error member of an error response.", {
        "code": integer("Error code (JSON-RPC or MCP-defined)."),
        "message": string("Short human-readable summary."),
        "data": {"description": "Optional extra detail, any JSON value."},
    }, ["code", "message"])
    if v.since("2025-11-25"):
        # URL_ELICITATION_REQUIRED must list the elicitations the client has to complete.
        error["if"] = {"required": ["code"], "properties": {"code": {"const": -32042}}}
        error["then"] = {"required": ["data"], "properties": {"data": obj(
            "Elicitations that must complete before the request can succeed.",
            {"elicitations": array(ref("ElicitUrlParams"))}, ["elicitations"])}}
    d.add("RpcError", error)

    jsonrpc = const("2.0", "Protocol marker; always the string 2.0.")
    d.add("RpcRequest", obj("A request: expects exactly one response with the same id.", {
        "jsonrpc": jsonrpc,
        "id": ref("RequestId"),
        "method": string("Name of the method to invoke."),
        "params": ref("RequestParams"),
        "result": NOT_ALLOWED,
        "error": NOT_ALLOWED,
    }, ["jsonrpc", "id", "method"]))
    d.add("RpcNotification", obj("A notification: one-way, never answered, carries no id.", {
        "jsonrpc": jsonrpc,
        "id": NOT_ALLOWED,
        "method": string("Name of the notification."),
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
