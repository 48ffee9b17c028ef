"""What servers offer: resources, resource templates, prompts and tools."""

from content import resource_members
from core import array, boolean, described, enum, map_of, obj, open_object, ref, string, when
from envelope import cache_hints, cache_required, notification_params, request_params, result


def define_resources(v, d):
    d.add("Resource", obj("A piece of data the server can hand out.", resource_members(v), ["uri", "name"]))
    d.add("ResourceTemplate", obj("A family of resources addressed by a URI template.", {
        "uriTemplate": string("RFC 6570 template.", format="uri-template"),
        "name": string("Programmatic name."),
        "title": when(v.since("2025-06-18"), string("Display name.")),
        "description": string(),
        "mimeType": string("Media type shared by all matching resources."),
        "annotations": ref("Annotations"),
        "icons": when(v.since("2025-11-25"), array(ref("Icon"))),
        "_meta": when(v.since("2025-06-18"), ref("Meta")),
    }, ["uriTemplate", "name"]))

    d.add("ListResourcesResult", result(v, "One page of resources.", {
        "resources": array(ref("Resource")),
        "nextCursor": ref("Cursor"),
        **cache_hints(v),
    }, ["resources", *cache_required(v)]))
    d.add("ListResourceTemplatesResult", result(v, "One page of resource templates.", {
        "resourceTemplates": array(ref("ResourceTemplate")),
        "nextCursor": ref("Cursor"),
        **cache_hints(v),
    }, ["resourceTemplates", *cache_required(v)]))

    uri = string("URI of the resource.", format="uri")
    d.add("ReadResourceParams", request_params(v, "Which resource to read.", {"uri": uri, **retry_members(v)}, ["uri"]))
    d.add("ReadResourceResult", result(v, "The resource's contents (one or more parts).", {
        "contents": array(ref("ResourceContentsItem")),
        **cache_hints(v),
    }, ["contents", *cache_required(v)]))
    if v.modern:
        # Changes are announced on a subscriptions/listen stream, which names itself in _meta.
        d.add("ResourceUpdatedParams", obj("A resource the listen request named changed.", {
            "_meta": ref("ListenNotificationMeta"), "uri": uri}, ["_meta", "uri"]))
    else:
        d.add("SubscribeParams", request_params(v, "Resource to watch for changes.", {"uri": uri}, ["uri"]))
        d.add("UnsubscribeParams", request_params(v, "Resource to stop watching.", {"uri": uri}, ["uri"]))
        d.add("ResourceUpdatedParams", notification_params(v, "A watched resource changed.", {"uri": uri}, ["uri"]))


def define_prompts(v, d):
    d.add("PromptArgument", obj("An argument a prompt template accepts.", {
        "name": string(),
        "title": when(v.since("2025-06-18"), string("Display name.")),
        "description": string(),
        "required": boolean("The argument must be supplied."),
    }, ["name"]))
    d.add("Prompt", obj("A prompt or prompt template the server offers.", {
        "name": string(),
        "title": when(v.since("2025-06-18"), string("Display name.")),
        "description": string(),
        "arguments": array(ref("PromptArgument")),
        "icons": when(v.since("2025-11-25"), array(ref("Icon"))),
        "_meta": when(v.since("2025-06-18"), ref("Meta")),
    }, ["name"]))
    d.add("ListPromptsResult", result(v, "One page of prompts.", {
        "prompts": array(ref("Prompt")),
        "nextCursor": ref("Cursor"),
        **cache_hints(v),
    }, ["prompts", *cache_required(v)]))
    d.add("GetPromptParams", request_params(v, "Which prompt to render, with which arguments.", {
        "name": string(),
        "arguments": map_of(string(), "Argument values by name."),
        **retry_members(v),
    }, ["name"]))
    d.add("PromptMessage", obj("One message of a rendered prompt.", {
        "role": ref("Role"),
        "content": ref("ContentBlock"),
    }, ["role", "content"]))
    d.add("GetPromptResult", result(v, "A rendered prompt.", {
        "description": string(),
        "messages": array(ref("PromptMessage")),
    }, ["messages"]))


def retry_members(v):
    """What a retried request carries in 2026-07-28 when the first answer asked for input: the
    client's answers by key, and the server's state echoed back unchanged."""
    if not v.modern:
        return {}
    return {
        "inputResponses": described("Answers to the input requests, by their keys.", ref("InputResponses")),
        "requestState": string("The requestState of the input-required result, echoed unchanged."),
    }


def object_schema_shape(v, desc):
    """inputSchema / outputSchema: a JSON Schema whose root describes an object."""
    if v.modern:
        # 2026-07-28: any 2020-12 keyword may appear; only the root type is fixed.
        return obj(desc, {
            "$schema": string("Dialect of this schema; 2020-12 when absent."),
            "type": {"const": "object"},
        }, ["type"])
    return obj(desc, {
        "$schema": when(v.since("2025-11-25"), string("Dialect of this schema; 2020-12 when absent.")),
        "type": {"const": "object"},
        "properties": map_of(open_object()),
        "required": array(string()),
    }, ["type"])


def output_schema_shape(v):
    if v.modern:
        return obj("JSON Schema of structuredContent; any 2020-12 schema.", {
            "$schema": string("Dialect of this schema; 2020-12 when absent."),
        })
    return object_schema_shape(v, "JSON Schema of structuredContent.")


def define_tools(v, d):
    if v.since("2025-03-26"):
        d.add("ToolAnnotations", obj("Untrusted hints about a tool's behaviour.", {
            "title": string("Display name."),
            "readOnlyHint": boolean("Does not modify its environment."),
            "destructiveHint": boolean("May destroy or overwrite (meaningful when not read-only)."),
            "idempotentHint": boolean("Repeating a call with the same arguments has no further effect."),
            "openWorldHint": boolean("Interacts with entities outside a closed domain."),
        }))
    if v.only("2025-11-25"):
        d.add("ToolExecution", obj("How a tool may be run.", {
            "taskSupport": enum(["forbidden", "optional", "required"], "Whether calls may or must be tasks."),
        }))
    d.add("Tool", obj("A function the server lets a model call.", {
        "name": string(),
        "title": when(v.since("2025-06-18"), string("Display name.")),
        "description": string("What the tool does, for the model."),
        "inputSchema": object_schema_shape(v, "JSON Schema of the arguments."),
        "outputSchema": when(v.since("2025-06-18"), output_schema_shape(v)),
        "annotations": when(v.since("2025-03-26"), ref("ToolAnnotations")),
        "execution": when(v.only("2025-11-25"), ref("ToolExecution")),
        "icons": when(v.since("2025-11-25"), array(ref("Icon"))),
        "_meta": when(v.since("2025-06-18"), ref("Meta")),
    }, ["name", "inputSchema"]))
    d.add("ListToolsResult", result(v, "One page of tools.", {
        "tools": array(ref("Tool")),
        "nextCursor": ref("Cursor"),
        **cache_hints(v),
    }, ["tools", *cache_required(v)]))
    d.add("CallToolParams", request_params(v, "Which tool to run and with what.", {
        "name": string(),
        "arguments": open_object("Arguments, checked against the tool's inputSchema."),
        "task": when(v.only("2025-11-25"), described("Run as a task.", ref("TaskMetadata"))),
        **retry_members(v),
    }, ["name"]))
    # 2026-07-28 lets structured output be any JSON value (its outputSchema may be any schema).
    structured = {"description": "Output matching outputSchema: any JSON value."} if v.modern else \
        open_object("Output matching outputSchema.")
    d.add("CallToolResult", result(v, "Outcome of a tool call; errors of the tool itself set isError.", {
        "content": array(ref("ContentBlock"), "Unstructured output."),
        "structuredContent": when(v.since("2025-06-18"), structured),
        "isError": boolean("The tool failed; content explains why."),
    }, ["content"]))


def define(v, d):
    define_resources(v, d)
    define_prompts(v, d)
    define_tools(v, d)
