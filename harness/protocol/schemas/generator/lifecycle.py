"""Who the parties are (Implementation) and what they declare (capabilities); before 2026-07-28
also the initialize handshake that declared them once per session. From 2026-07-28 the client
declares its capabilities on every request (_meta) and the server in server/discover."""

from core import array, boolean, map_of, obj, open_object, ref, string, when
from envelope import cache_hints, cache_required, request_params, result


def flag_object(desc):
    """A capability switched on by its presence; members are reserved for sub-options."""
    return open_object(desc)


def define(v, d):
    d.add("Implementation", obj("Name and version of an MCP client or server program.", {
        "name": string("Programmatic name."),
        "title": when(v.since("2025-06-18"), string("Display name.")),
        "version": string(),
        "description": when(v.since("2025-11-25"), string("What the program does.")),
        "icons": when(v.since("2025-11-25"), array(ref("Icon"))),
        "websiteUrl": when(v.since("2025-11-25"), string("Home page.", format="uri")),
    }, ["name", "version"]))

    experimental = map_of(open_object(), "Non-standard capabilities, one object per feature.")
    list_changed = boolean("Announces list changes with a notification.")

    client_tasks = None
    server_tasks = None
    # 2026-07-28 moved tasks into an extension; extensions are declared by name.
    extensions = when(v.modern, map_of(open_object(), "Extensions supported, by name, with their settings."))
    if v.only("2025-11-25"):
        client_tasks = obj("Task support on the client side.", {
            "list": flag_object("tasks/list is supported."),
            "cancel": flag_object("tasks/cancel is supported."),
            "requests": obj("Requests that may be run as tasks.", {
                "sampling": obj(None, {"createMessage": flag_object("sampling/createMessage as a task.")}),
                "elicitation": obj(None, {"create": flag_object("elicitation/create as a task.")}),
            }),
        })
        server_tasks = obj("Task support on the server side.", {
            "list": flag_object("tasks/list is supported."),
            "cancel": flag_object("tasks/cancel is supported."),
            "requests": obj("Requests that may be run as tasks.", {
                "tools": obj(None, {"call": flag_object("tools/call as a task.")}),
            }),
        })

    if v.since("2025-11-25"):
        sampling = obj("The client can sample from a language model.", {
            "context": flag_object("includeContext values other than none are honoured."),
            "tools": flag_object("Tools may be passed to the model."),
        })
        elicitation = obj("The client can ask its user for input.", {
            "form": flag_object("Form mode is supported."),
            "url": flag_object("URL mode is supported."),
        })
    else:
        sampling = flag_object("The client can sample from a language model.")
        elicitation = when(v.since("2025-06-18"), flag_object("The client can ask its user for input."))

    d.add("ClientCapabilities", obj("What a client supports.", {
        "experimental": experimental,
        # Roots are asked for inside results from 2026-07-28; no list-changed notification exists.
        "roots": obj("The client exposes filesystem roots.", {"listChanged": when(not v.modern, list_changed)}),
        "sampling": sampling,
        "elicitation": elicitation,
        "tasks": client_tasks,
        "extensions": extensions,
    }))
    d.add("ServerCapabilities", obj("What a server supports.", {
        "experimental": experimental,
        "logging": flag_object("The server sends log messages."),
        "completions": when(v.since("2025-03-26"), flag_object("The server offers argument completion.")),
        "prompts": obj("The server offers prompts.", {"listChanged": list_changed}),
        "resources": obj("The server offers resources.", {
            "subscribe": boolean("Clients may subscribe to resource updates."),
            "listChanged": list_changed,
        }),
        "tools": obj("The server offers tools.", {"listChanged": list_changed}),
        "tasks": server_tasks,
        "extensions": extensions,
    }))
    if v.modern:
        define_discover(v, d)
    else:
        define_initialize(v, d)


def define_initialize(v, d):
    d.add("InitializeParams", request_params(v, "The client opens a session.", {
        "protocolVersion": string("Latest protocol version the client supports."),
        "capabilities": ref("ClientCapabilities"),
        "clientInfo": ref("Implementation"),
    }, ["protocolVersion", "capabilities", "clientInfo"]))
    d.add("InitializeResult", result(v, "The server's side of the handshake.", {
        "protocolVersion": string("Version the server will speak in this session."),
        "capabilities": ref("ServerCapabilities"),
        "serverInfo": ref("Implementation"),
        "instructions": string("Hints a client may pass on to its model."),
    }, ["protocolVersion", "capabilities", "serverInfo"]))


def define_discover(v, d):
    """server/discover: what the server speaks and offers, asked for whenever the client likes."""
    d.add("DiscoverResult", result(v, "The server's versions, capabilities and identity.", {
        "supportedVersions": array(string(), "Protocol versions the server accepts on a request."),
        "capabilities": ref("ServerCapabilities"),
        "instructions": string("Hints a client may pass on to its model."),
        **cache_hints(v),
    }, ["supportedVersions", "capabilities", *cache_required(v)]))

