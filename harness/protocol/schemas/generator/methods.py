"""Every MCP method per version: who sends it, what its params and result are, which capability
must be declared for it. Produces the per-method message definitions, the direction unions and
methods.json.

Capability strings are "<side>:<dotted path>": side is server or client when one party always
declares it; for methods either party may send (tasks) it is receiver (the party asked to act)
or sender (the party that sends the notification).
"""

from core import dispatch, ref
from envelope import message

CLIENT, SERVER, BOTH = "client", "server", "both"


class Method:
    def __init__(self, name, sender, kind, message_def, params, params_required, result=None,
                 capability=None, since="2024-11-05", task_result=False):
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


def request(name, sender, message_def, params, params_required, result, capability=None, **kw):
    return Method(name, sender, "request", message_def, params, params_required, result, capability, **kw)


def notification(name, sender, message_def, params, params_required, capability=None, **kw):
    return Method(name, sender, "notification", message_def, params, params_required, None, capability, **kw)


def table(v):
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
        out[m.name] = entry
    return {
        "$comment": f"MCP {v.name} methods; generated by generator/build.py, do not edit by hand.",
        "version": v.name,
        "methods": out,
    }
