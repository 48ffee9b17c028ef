"""Content blocks (text, image, audio, resource links, embedded resources), resource contents,
annotations and icons: the pieces tool results, prompts and sampling messages are made of."""

from core import (array, described, dispatch, enum, integer, obj, open_object, ref, string, unit,
                  when)


def resource_members(v):
    """Members shared by Resource and ResourceLink (a link is a Resource with a type tag)."""
    return {
        "uri": string("Where the resource lives.", format="uri"),
        "name": string("Programmatic name."),
        "title": when(v.since("2025-06-18"), string("Display name.")),
        "description": string("What the resource holds."),
        "mimeType": string("Media type, when known."),
        "size": integer("Size in bytes of the raw content, when known."),
        "annotations": ref("Annotations"),
        "icons": when(v.since("2025-11-25"), array(ref("Icon"), "Icons a client may show.")),
        "_meta": when(v.since("2025-06-18"), ref("Meta")),
    }


def define(v, d):
    meta = when(v.since("2025-06-18"), ref("Meta"))

    d.add("Role", enum(["user", "assistant"], "Who a message or content is attributed to."))
    d.add("Annotations", obj("Hints for clients on how to use an object.", {
        "audience": array(ref("Role"), "Intended readers."),
        "priority": unit("Importance from 0 (optional) to 1 (required)."),
        "lastModified": when(v.since("2025-06-18"), string("ISO 8601 time of last change.")),
    }))

    if v.since("2025-11-25"):
        d.add("Icon", obj("An image a client may display for an object.", {
            "src": string("URI of the image (https or data:).", format="uri"),
            "mimeType": string("Media type of the image."),
            "sizes": array(string(), "Sizes the image suits, such as 48x48 or any."),
            "theme": enum(["light", "dark"], "Background the icon is made for."),
        }, ["src"]))

    d.add("TextContent", obj("Plain text.", {
        "type": {"const": "text"},
        "text": string(),
        "annotations": ref("Annotations"),
        "_meta": meta,
    }, ["type", "text"]))
    d.add("ImageContent", obj("An image, base64 encoded.", {
        "type": {"const": "image"},
        "data": string("Base64 image bytes.", format="byte"),
        "mimeType": string("Media type of the image."),
        "annotations": ref("Annotations"),
        "_meta": meta,
    }, ["type", "data", "mimeType"]))
    if v.since("2025-03-26"):
        d.add("AudioContent", obj("Audio, base64 encoded.", {
            "type": {"const": "audio"},
            "data": string("Base64 audio bytes.", format="byte"),
            "mimeType": string("Media type of the audio."),
            "annotations": ref("Annotations"),
            "_meta": meta,
        }, ["type", "data", "mimeType"]))

    d.add("ResourceContents", obj("What every piece of resource contents has.", {
        "uri": string("The resource these contents belong to.", format="uri"),
        "mimeType": string(),
        "_meta": meta,
    }, ["uri"]))
    d.add("TextResourceContents", obj("Resource contents as text.", {
        "uri": string(format="uri"),
        "mimeType": string(),
        "text": string("The text, when the resource is textual."),
        "_meta": meta,
    }, ["uri", "text"]))
    d.add("BlobResourceContents", obj("Resource contents as base64 bytes.", {
        "uri": string(format="uri"),
        "mimeType": string(),
        "blob": string("Base64 bytes, when the resource is binary.", format="byte"),
        "_meta": meta,
    }, ["uri", "blob"]))
    d.add("ResourceContentsItem", {
        "description": "Text or blob contents: a blob member makes it a blob.",
        "type": "object",
        "if": {"required": ["blob"]},
        "then": ref("BlobResourceContents"),
        "else": ref("TextResourceContents"),
    })

    d.add("EmbeddedResource", obj("A resource's contents carried inline.", {
        "type": {"const": "resource"},
        "resource": ref("ResourceContentsItem"),
        "annotations": ref("Annotations"),
        "_meta": meta,
    }, ["type", "resource"]))
    if v.since("2025-06-18"):
        d.add("ResourceLink", obj("A pointer to a resource the client may read.", {
            "type": {"const": "resource_link"},
            **resource_members(v),
        }, ["type", "uri", "name"]))

    blocks = [("text", ref("TextContent")), ("image", ref("ImageContent"))]
    if v.since("2025-03-26"):
        blocks.append(("audio", ref("AudioContent")))
    if v.since("2025-06-18"):
        blocks.append(("resource_link", ref("ResourceLink")))
    blocks.append(("resource", ref("EmbeddedResource")))
    d.add("ContentBlock", dispatch(
        "type", blocks, "Content of tool results and prompt messages, told apart by type."))

    # Sampling exchanges a narrower set of blocks; 2025-11-25 adds tool use and tool results.
    sampling = [("text", ref("TextContent")), ("image", ref("ImageContent"))]
    if v.since("2025-03-26"):
        sampling.append(("audio", ref("AudioContent")))
    if v.since("2025-11-25"):
        d.add("ToolUseContent", obj("The model asks for a tool to be run.", {
            "type": {"const": "tool_use"},
            "id": string("Identifies this call; the tool result refers to it."),
            "name": string("Tool to run."),
            "input": open_object("Arguments for the tool."),
            "_meta": ref("Meta"),
        }, ["type", "id", "name", "input"]))
        d.add("ToolResultContent", obj("The outcome of a tool call, handed back to the model.", {
            "type": {"const": "tool_result"},
            "toolUseId": string("id of the tool_use block this answers."),
            "content": array(ref("ContentBlock")),
            "structuredContent": open_object(),
            "isError": {"type": "boolean"},
            "_meta": ref("Meta"),
        }, ["type", "toolUseId", "content"]))
        sampling.append(("tool_use", ref("ToolUseContent")))
        sampling.append(("tool_result", ref("ToolResultContent")))
    d.add("SamplingContentBlock", dispatch("type", sampling, "One block of a sampling message."))
    if v.since("2025-11-25"):
        d.add("SamplingContent", {
            "description": "One block, or several as an array.",
            "if": {"type": "array"},
            "then": array(ref("SamplingContentBlock")),
            "else": ref("SamplingContentBlock"),
        })
    else:
        d.add("SamplingContent", described("One content block.", ref("SamplingContentBlock")))
