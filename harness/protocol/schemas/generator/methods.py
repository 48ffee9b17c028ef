"""Every MCP method per version: who sends it, what its params and result are, which capability
must be declared for it. Produces the per-method message definitions, the direction unions and
methods.json.

Capability strings are "<side>:<dotted path>": side is server or client when one party always
declares it; for methods either party may send (tasks) it is receiver (the party asked to act)
or sender (the party that sends the notification).

2026-07-28 (modern) has a table of its own: only clients send requests, every request needs
params (its _meta), and a method may belong to an extension both sides declare by name.
"""

from core import dispatch, ref
from envelope import message
from mrtr import ANSWER, INPUT_REQUEST_DEFS, INPUT_REQUESTS, RETRYABLE
from tasks import EXTENSION

CLIENT, SERVER, BOTH = "client", "server", "both"


class Method:
    def __init__(self, name, sender, kind, message_def, params, params_required, result=None,
                 capability=None, since="2024-11-05", task_result=False, cacheable=False, mcp_name=None,
                 extension=None):
        self.name = name
        self.sender = sender
        self.kind = kind
        self.message_def = message_def
        self.params = params
        self.params_required = params_required
        self.result = result
        self.capability = capability
        self.since = since
        self.task_result = task_result
        # 2026-07-28 facts the stateless flow needs: the result carries ttlMs/cacheScope, the
        # params member the HTTP Mcp-Name header repeats, the extension the method belongs to.
        self.cacheable = cacheable
        self.mcp_name = mcp_name
        self.extension = extension


def request(name, sender, message_def, params, params_required, result, capability=None, **kw):
    return Method(name, sender, "request", message_def, params, params_required, result, capability, **kw)


def notification(name, sender, message_def, params, params_required, capability=None, **kw):
    return Method(name, sender, "notification", message_def, params, params_required, None, capability, **kw)


def modern_table():
    def answered(method):
        return ANSWER.get(method)

    resources, prompts, tools = "server:resources", "server:prompts", "server:tools"
    return [
        request("server/discover", CLIENT, "DiscoverRequest", "RequestParams", True, "DiscoverResult",
                cacheable=True),
        request("resources/list", CLIENT, "ListResourcesRequest", "PaginatedParams", True,
                "ListResourcesResult", resources, cacheable=True),
        request("resources/templates/list", CLIENT, "ListResourceTemplatesRequest", "PaginatedParams", True,
                "ListResourceTemplatesResult", resources, cacheable=True),
        request("resources/read", CLIENT, "ReadResourceRequest", "ReadResourceParams", True,
                answered("resources/read"), resources, cacheable=True, mcp_name="uri"),
        request("prompts/list", CLIENT, "ListPromptsRequest", "PaginatedParams", True,
                "ListPromptsResult", prompts, cacheable=True),
        request("prompts/get", CLIENT, "GetPromptRequest", "GetPromptParams", True,
                answered("prompts/get"), prompts, mcp_name="name"),
        request("tools/list", CLIENT, "ListToolsRequest", "PaginatedParams", True,
                "ListToolsResult", tools, cacheable=True),
        request("tools/call", CLIENT, "CallToolRequest", "CallToolParams", True,
                answered("tools/call"), tools, mcp_name="name"),
        request("completion/complete", CLIENT, "CompleteRequest", "CompleteParams", True, "CompleteResult",
                "server:completions"),
        # Which notifications a listen may ask for follows from the filter; each notification
        # below names the capability it needs.
        request("subscriptions/listen", CLIENT, "SubscriptionsListenRequest", "SubscriptionsListenParams", True,
                "SubscriptionsListenResult"),
        request("tasks/get", CLIENT, "GetTaskRequest", "GetTaskParams", True, "GetTaskResult",
                mcp_name="taskId", extension=EXTENSION),
        request("tasks/update", CLIENT, "UpdateTaskRequest", "UpdateTaskParams", True, "UpdateTaskResult",
                mcp_name="taskId", extension=EXTENSION),
        request("tasks/cancel", CLIENT, "CancelTaskRequest", "CancelTaskParams", True, "CancelTaskResult",
                mcp_name="taskId", extension=EXTENSION),

        # A server sends notifications/cancelled only on stdio, to end a listen stream.
        notification("notifications/cancelled", BOTH, "CancelledNotification", "CancelledParams", True),
        notification("notifications/progress", SERVER, "ProgressNotification", "ProgressParams", True),
        notification("notifications/message", SERVER, "LoggingMessageNotification", "LoggingMessageParams",
                     True, "server:logging"),
        notification("notifications/subscriptions/acknowledged", SERVER, "SubscriptionsAcknowledgedNotification",
                     "SubscriptionsAcknowledgedParams", True),
        notification("notifications/resources/list_changed", SERVER, "ResourceListChangedNotification",
                     "ListenNotificationParams", True, "server:resources.listChanged"),
        notification("notifications/resources/updated", SERVER, "ResourceUpdatedNotification",
                     "ResourceUpdatedParams", True, "server:resources.subscribe"),
        notification("notifications/prompts/list_changed", SERVER, "PromptListChangedNotification",
                     "ListenNotificationParams", True, "server:prompts.listChanged"),
        notification("notifications/tools/list_changed", SERVER, "ToolListChangedNotification",
                     "ListenNotificationParams", True, "server:tools.listChanged"),
        notification("notifications/tasks", SERVER, "TaskStatusNotification", "TaskStatusParams", True,
                     extension=EXTENSION),
    ]


def table(v):
    if v.modern:
        return modern_table()
    tasks = "2025-11-25"
    methods = [
        request("initialize", CLIENT, "InitializeRequest", "InitializeParams", True, "InitializeResult"),
        request("ping", BOTH, "PingRequest", "RequestParams", False, "EmptyResult"),
        request("resources/list", CLIENT, "ListResourcesRequest", "PaginatedParams", False,
                "ListResourcesResult", "server:resources"),
        request("resources/templates/list", CLIENT, "ListResourceTemplatesRequest", "PaginatedParams", False,
                "ListResourceTemplatesResult", "server:resources"),
        request("resources/read", CLIENT, "ReadResourceRequest", "ReadResourceParams", True,
                "ReadResourceResult", "server:resources"),
        request("resources/subscribe", CLIENT, "SubscribeRequest", "SubscribeParams", True,
                "EmptyResult", "server:resources.subscribe"),
        request("resources/unsubscribe", CLIENT, "UnsubscribeRequest", "UnsubscribeParams", True,
                "EmptyResult", "server:resources.subscribe"),
        request("prompts/list", CLIENT, "ListPromptsRequest", "PaginatedParams", False,
                "ListPromptsResult", "server:prompts"),
        request("prompts/get", CLIENT, "GetPromptRequest", "GetPromptParams", True,
                "GetPromptResult", "server:prompts"),
        request("tools/list", CLIENT, "ListToolsRequest", "PaginatedParams", False,
                "ListToolsResult", "server:tools"),
        request("tools/call", CLIENT, "CallToolRequest", "CallToolParams", True,
                "CallToolResult", "server:tools", task_result=v.since(tasks)),
        request("logging/setLevel", CLIENT, "SetLevelRequest", "SetLevelParams", True,
                "EmptyResult", "server:logging"),
        # completion/complete had no capability of its own before 2025-03-26.
        request("completion/complete", CLIENT, "CompleteRequest", "CompleteParams", True, "CompleteResult",
                "server:completions" if v.since("2025-03-26") else None),
        request("tasks/get", BOTH, "GetTaskRequest", "GetTaskParams", True, "GetTaskResult",
                "receiver:tasks", since=tasks),
        request("tasks/result", BOTH, "GetTaskPayloadRequest", "GetTaskPayloadParams", True,
                "GetTaskPayloadResult", "receiver:tasks", since=tasks),
        request("tasks/list", BOTH, "ListTasksRequest", "PaginatedParams", False, "ListTasksResult",
                "receiver:tasks.list", since=tasks),
        request("tasks/cancel", BOTH, "CancelTaskRequest", "CancelTaskParams", True, "CancelTaskResult",
                "receiver:tasks.cancel", since=tasks),
        request("sampling/createMessage", SERVER, "CreateMessageRequest", "CreateMessageParams", True,
                "CreateMessageResult", "client:sampling", task_result=v.since(tasks)),
        request("roots/list", SERVER, "ListRootsRequest", "RequestParams", False, "ListRootsResult",
                "client:roots"),
        request("elicitation/create", SERVER, "ElicitRequest", "ElicitParams", True, "ElicitResult",
                "client:elicitation", since="2025-06-18", task_result=v.since(tasks)),

        notification("notifications/initialized", CLIENT, "InitializedNotification", "NotificationParams", False),
        notification("notifications/cancelled", BOTH, "CancelledNotification", "CancelledParams", True),
        notification("notifications/progress", BOTH, "ProgressNotification", "ProgressParams", True),
        notification("notifications/roots/list_changed", CLIENT, "RootsListChangedNotification",
                     "NotificationParams", False, "client:roots.listChanged"),
        notification("notifications/resources/list_changed", SERVER, "ResourceListChangedNotification",
                     "NotificationParams", False, "server:resources.listChanged"),
        notification("notifications/resources/updated", SERVER, "ResourceUpdatedNotification",
                     "ResourceUpdatedParams", True, "server:resources.subscribe"),
        notification("notifications/prompts/list_changed", SERVER, "PromptListChangedNotification",
                     "NotificationParams", False, "server:prompts.listChanged"),
        notification("notifications/tools/list_changed", SERVER, "ToolListChangedNotification",
                     "NotificationParams", False, "server:tools.listChanged"),
        notification("notifications/message", SERVER, "LoggingMessageNotification", "LoggingMessageParams",
                     True, "server:logging"),
        notification("notifications/tasks/status", BOTH, "TaskStatusNotification", "TaskStatusParams", True,
                     "sender:tasks", since=tasks),
        notification("notifications/elicitation/complete", SERVER, "ElicitationCompleteNotification",
                     "ElicitationCompleteParams", True, "client:elicitation.url", since=tasks),
    ]
    return [m for m in methods if v.since(m.since)]


def define(v, d):
    methods = table(v)
    for m in methods:
        envelope = "RpcRequest" if m.kind == "request" else "RpcNotification"
        message(d, m.message_def, envelope, m.name, m.params, m.params_required, f"A complete {m.name} {m.kind}.")

    def union(name, desc, sender, kind):
        cases = [(m.name, ref(m.message_def)) for m in methods
                 if m.kind == kind and m.sender in (sender, BOTH)]
        if not cases:
            # 2026-07-28 servers send no requests: nothing is a valid ServerRequest.
            d.add(name, {"description": desc + " There is none in this version.", "not": {}})
            return
        d.add(name, dispatch("method", cases, desc))

    union("ClientRequest", "Any request a client may send.", CLIENT, "request")
    union("ServerRequest", "Any request a server may send.", SERVER, "request")
    union("ClientNotification", "Any notification a client may send.", CLIENT, "notification")
    union("ServerNotification", "Any notification a server may send.", SERVER, "notification")
    return methods


def methods_document(v, methods):
    out = {}
    for m in sorted(methods, key=lambda m: m.name):
        entry = {
            "from": m.sender,
            "kind": m.kind,
            "params": m.params,
            "result": m.result,
            "capability": m.capability,
            "message": m.message_def,
            "paramsRequired": m.params_required,
        }
        if m.task_result:
            entry["taskResult"] = "CreateTaskResult"
        if m.name in RETRYABLE and v.modern:
            entry["inputRequired"] = True
            entry["completeResult"] = RETRYABLE[m.name]
        if m.cacheable:
            entry["cacheable"] = True
        if m.mcp_name:
            entry["mcpName"] = m.mcp_name
        if m.extension:
            entry["extension"] = m.extension
        out[m.name] = entry
    document = {
        "$comment": f"MCP {v.name} methods; generated by generator/build.py, do not edit by hand.",
        "version": v.name,
        "methods": out,
    }
    if v.modern:
        document["stateless"] = True
        document["requestMeta"] = ["io.modelcontextprotocol/protocolVersion",
                                   "io.modelcontextprotocol/clientCapabilities"]
        document["inputRequests"] = {
            method: {"params": params, "response": response, "capability": capability,
                     "definition": definition}
            for (method, (params, response, capability)), definition in zip(
                INPUT_REQUESTS.items(), [INPUT_REQUEST_DEFS[m] for m in INPUT_REQUESTS])
        }
    return document
