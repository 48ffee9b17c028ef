"""Multi round-trip requests (2026-07-28): a server that needs something from the client (a form
filled in, a model run, the roots) answers tools/call, prompts/get or resources/read with an
input-required result listing input requests; the client retries the request with a new id,
carrying its answers (inputResponses) and the server's requestState. The asks are the old
server-to-client requests reduced to method and params; the answers are their old results
without resultType.
"""

from core import const, dispatch, map_of, obj, ref, string
from envelope import NOT_ALLOWED

# Method -> definition of its complete result, for the requests that may ask for input first.
RETRYABLE = {
    "tools/call": "CallToolResult",
    "prompts/get": "GetPromptResult",
    "resources/read": "ReadResourceResult",
}
# The result member of a response to one of them: complete, input-required, or (tools/call, with
# the tasks extension) a task handle.
ANSWER = {
    "tools/call": "CallToolResponseResult",
    "prompts/get": "GetPromptResponseResult",
    "resources/read": "ReadResourceResponseResult",
}
# Input request method -> (params definition, answer definition, capability the client declares).
INPUT_REQUESTS = {
    "elicitation/create": ("ElicitParams", "ElicitResult", "client:elicitation"),
    "sampling/createMessage": ("CreateMessageParams", "CreateMessageResult", "client:sampling"),
    "roots/list": ("InputParams", "ListRootsResult", "client:roots"),
}
INPUT_REQUEST_DEFS = {
    "elicitation/create": "ElicitRequest",
    "sampling/createMessage": "CreateMessageRequest",
    "roots/list": "ListRootsRequest",
}


def input_request(method, params, params_required):
    # Not a JSON-RPC message: it has neither jsonrpc nor an id.
    return obj(f"Input request {method}, embedded in an input-required result.", {
        "method": const(method),
        "params": ref(params),
        "jsonrpc": NOT_ALLOWED,
        "id": NOT_ALLOWED,
    }, ["method", "params"] if params_required else ["method"])


def answer(v, method, complete):
    """The result of a retryable request, told apart by resultType like a tagged union."""
    chain = ref(complete)
    if method == "tools/call":
        chain = {"if": {"required": ["resultType"], "properties": {"resultType": {"const": "task"}}},
                 "then": ref("CreateTaskResult"), "else": chain}
    return {
        "description": f"Result of {method}: complete, or asking for input first.",
        "type": "object",
        "if": {"required": ["resultType"], "properties": {"resultType": {"const": "input_required"}}},
        "then": ref("InputRequiredResult"),
        "else": chain,
    }


def define(v, d):
    if not v.modern:
        return
    d.add("InputParams", obj("Params of an input request that takes no arguments.", {"_meta": ref("Meta")}))
    for method, (params, _, _) in INPUT_REQUESTS.items():
        d.add(INPUT_REQUEST_DEFS[method], input_request(method, params, method != "roots/list"))
    d.add("InputRequest", dispatch(
        "method", [(m, ref(INPUT_REQUEST_DEFS[m])) for m in INPUT_REQUESTS],
        "Something the server needs from the client before it can finish the request."))
    d.add("InputRequests", map_of(ref("InputRequest"), "Input requests by server-chosen key."))
    d.add("InputResponse", {
        "description": "The client's answer to one input request (not a result: no resultType).",
        "anyOf": [ref(answer_def) for _, answer_def, _ in INPUT_REQUESTS.values()],
    })
    d.add("InputResponses", map_of(ref("InputResponse"), "Answers, under the keys of the input requests."))
    required_result = obj("The server needs input: retry the request with the answers.", {
        "_meta": ref("ResultMeta"),
        "resultType": const("input_required"),
        "inputRequests": ref("InputRequests"),
        "requestState": string("Opaque state the client echoes unchanged on the retry."),
    }, ["resultType"])
    # The specification asks for at least one of the two; its JSON schema does not say so.
    required_result["anyOf"] = [{"required": ["inputRequests"]}, {"required": ["requestState"]}]
    d.add("InputRequiredResult", required_result)
    for method, complete in RETRYABLE.items():
        d.add(ANSWER[method], answer(v, method, complete))
