"""What clients offer: sampling, roots and elicitation. Before 2026-07-28 the server asks for them
with JSON-RPC requests; from 2026-07-28 the same asks travel as input requests inside a result
(mrtr.py), and the client's answers inside the retried request, so they are no longer request
params and results: no required _meta, no resultType."""

from core import (array, boolean, described, enum, integer, map_of, number, obj, open_object, ref,
                  string, unit, when)
from envelope import notification_params, request_params, result


def input_params(v, desc, props, required=()):
    if v.modern:
        return obj(desc, {"_meta": ref("Meta"), **props}, required)
    return request_params(v, desc, props, required)


def input_response(v, desc, props, required=()):
    if v.modern:
        return obj(desc, {"_meta": ref("Meta"), **props}, required)
    return result(v, desc, props, required)


def define_sampling(v, d):
    d.add("ModelHint", obj("A model name, or part of one, the server would like.", {
        "name": string(),
    }))
    d.add("ModelPreferences", obj("How the server weighs model choice; the client decides.", {
        "hints": array(ref("ModelHint"), "Tried in order."),
        "costPriority": unit("0..1, how much low cost matters."),
        "speedPriority": unit("0..1, how much low latency matters."),
        "intelligencePriority": unit("0..1, how much capability matters."),
    }))
    d.add("SamplingMessage", obj("One turn of the conversation to sample from.", {
        "role": ref("Role"),
        "content": ref("SamplingContent"),
        "_meta": when(v.since("2025-11-25"), ref("Meta")),
    }, ["role", "content"]))
    if v.since("2025-11-25"):
        d.add("ToolChoice", obj("Whether the model may, must or must not use tools.", {
            "mode": enum(["auto", "required", "none"]),
        }))
    d.add("CreateMessageParams", input_params(v, "The server asks the client to run a model.", {
        "messages": array(ref("SamplingMessage")),
        "modelPreferences": ref("ModelPreferences"),
        "systemPrompt": string(),
        "includeContext": enum(["none", "thisServer", "allServers"], "Which MCP context to add."),
        "temperature": number(),
        "maxTokens": integer("Upper bound on tokens to generate."),
        "stopSequences": array(string()),
        "metadata": open_object("Provider-specific options."),
        "tools": when(v.since("2025-11-25"), array(ref("Tool"), "Tools the model may call.")),
        "toolChoice": when(v.since("2025-11-25"), ref("ToolChoice")),
        "task": when(v.only("2025-11-25"), described("Run as a task.", ref("TaskMetadata"))),
    }, ["messages", "maxTokens"]))
    d.add("CreateMessageResult", input_response(v, "What the model produced.", {
        "role": ref("Role"),
        "content": ref("SamplingContent"),
        "model": string("Model that produced it."),
        "stopReason": string("Why generation stopped (endTurn, stopSequence, maxTokens, ...)."),
    }, ["role", "content", "model"]))


def define_roots(v, d):
    d.add("Root", obj("A directory or file the client lets servers work in.", {
        "uri": string("A file:// URI in these protocol versions.", format="uri"),
        "name": string(),
        "_meta": when(v.since("2025-06-18"), ref("Meta")),
    }, ["uri"]))
    d.add("ListRootsResult", input_response(v, "The client's roots.", {
        "roots": array(ref("Root")),
    }, ["roots"]))


def primitive_schemas(v, d):
    """The flat JSON Schema subset an elicitation form may use, one definition per field kind."""
    common = {"title": string(), "description": string()}
    d.add("StringSchema", obj("A text field.", {
        "type": {"const": "string"},
        **common,
        "minLength": integer(),
        "maxLength": integer(),
        "format": enum(["email", "uri", "date", "date-time"]),
        "default": when(v.since("2025-11-25"), string()),
    }, ["type"]))
    d.add("NumberSchema", obj("A numeric field.", {
        "type": enum(["number", "integer"]),
        **common,
        "minimum": number(),
        "maximum": number(),
        "default": when(v.since("2025-11-25"), number()),
    }, ["type"]))
    d.add("BooleanSchema", obj("A yes/no field.", {
        "type": {"const": "boolean"},
        **common,
        "default": boolean(),
    }, ["type"]))
    if v.before("2025-11-25"):
        d.add("EnumSchema", obj("A choice among strings.", {
            "type": {"const": "string"},
            **common,
            "enum": array(string()),
            "enumNames": array(string(), "Display names, parallel to enum."),
        }, ["type", "enum"]))
        kinds = ["StringSchema", "NumberSchema", "BooleanSchema", "EnumSchema"]
    else:
        titled_option = obj(None, {"const": string("Value."), "title": string("Label.")}, ["const", "title"])
        d.add("UntitledSingleSelectEnumSchema", obj("Pick one string; labels are the values.", {
            "type": {"const": "string"}, **common,
            "enum": array(string()),
            "default": string(),
        }, ["type", "enum"]))
        d.add("TitledSingleSelectEnumSchema", obj("Pick one string from labelled options.", {
            "type": {"const": "string"}, **common,
            "oneOf": array(titled_option),
            "default": string(),
        }, ["type", "oneOf"]))
        d.add("UntitledMultiSelectEnumSchema", obj("Pick several strings; labels are the values.", {
            "type": {"const": "array"}, **common,
            "minItems": integer(), "maxItems": integer(),
            "items": obj(None, {"type": {"const": "string"}, "enum": array(string())}, ["type", "enum"]),
            "default": array(string()),
        }, ["type", "items"]))
        d.add("TitledMultiSelectEnumSchema", obj("Pick several strings from labelled options.", {
            "type": {"const": "array"}, **common,
            "minItems": integer(), "maxItems": integer(),
            "items": obj(None, {"anyOf": array(titled_option)}, ["anyOf"]),
            "default": array(string()),
        }, ["type", "items"]))
        d.add("LegacyTitledEnumSchema", obj("Older enum form with parallel display names.", {
            "type": {"const": "string"}, **common,
            "enum": array(string()),
            "enumNames": array(string()),
            "default": string(),
        }, ["type", "enum"]))
        kinds = ["StringSchema", "NumberSchema", "BooleanSchema", "UntitledSingleSelectEnumSchema",
                 "TitledSingleSelectEnumSchema", "UntitledMultiSelectEnumSchema",
                 "TitledMultiSelectEnumSchema", "LegacyTitledEnumSchema"]
    # A union without a tag: any matching field kind will do.
    d.add("PrimitiveSchemaDefinition", {"description": "One form field.",
                                        "anyOf": [ref(k) for k in kinds]})


def define_elicitation(v, d):
    if v.before("2025-06-18"):
        return
    primitive_schemas(v, d)
    requested = obj("The form: a flat object schema of primitive fields.", {
        "$schema": when(v.since("2025-11-25"), string()),
        "type": {"const": "object"},
        "properties": map_of(ref("PrimitiveSchemaDefinition")),
        "required": array(string()),
    }, ["type", "properties"])
    task = when(v.only("2025-11-25"), described("Run as a task.", ref("TaskMetadata")))
    form = input_params(v, "Ask the user to fill in a form.", {
        "mode": when(v.since("2025-11-25"), {"const": "form"}),
        "message": string("What to tell the user."),
        "requestedSchema": requested,
        "task": task,
    }, ["message", "requestedSchema"])
    if v.before("2025-11-25"):
        d.add("ElicitParams", form)
        content_value = {"type": ["string", "number", "boolean"]}
    else:
        d.add("ElicitFormParams", form)
        d.add("ElicitUrlParams", input_params(v, "Send the user to a URL to act out of band.", {
            "mode": {"const": "url"},
            "message": string("What to tell the user."),
            # 2026-07-28 dropped the id: the server correlates through requestState.
            "elicitationId": when(not v.modern, string("Identifies this elicitation until it completes.")),
            "url": string("Where to send the user.", format="uri"),
            "task": task,
        }, ["mode", "message"] + ([] if v.modern else ["elicitationId"]) + ["url"]))
        d.add("ElicitParams", {
            "description": "Form mode unless mode says url.",
            "type": "object",
            "if": {"required": ["mode"], "properties": {"mode": {"const": "url"}}},
            "then": ref("ElicitUrlParams"),
            "else": ref("ElicitFormParams"),
        })
        if not v.modern:
            d.add("ElicitationCompleteParams", notification_params(v, "A URL-mode elicitation finished.", {
                "elicitationId": string(),
            }, ["elicitationId"]))
        content_value = {"anyOf": [{"type": ["string", "number", "boolean"]}, array(string())]}
    d.add("ElicitResult", input_response(v, "The user's answer.", {
        "action": enum(["accept", "decline", "cancel"]),
        "content": map_of(content_value, "Form values, present on accept in form mode."),
    }, ["action"]))


def define(v, d):
    define_sampling(v, d)
    define_roots(v, d)
    define_elicitation(v, d)
