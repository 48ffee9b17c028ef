"""Cross-cutting utilities: cancellation, progress, logging and argument completion."""

from core import array, boolean, described, dispatch, enum, integer, map_of, number, obj, ref, string, when
from envelope import notification_params, request_params, result

LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]


def define(v, d):
    # In 2025-11-25 a cancellation may target a task instead of a request id; 2026-07-28 moved
    # tasks out (the extension cancels with tasks/cancel), so the request id is required again.
    d.add("CancelledParams", notification_params(v, "A request the sender no longer wants answered.", {
        "requestId": described("id of the request to stop.", ref("RequestId")),
        "reason": string("Why, for logs or users."),
    }, [] if v.only("2025-11-25") else ["requestId"]))

    d.add("ProgressParams", notification_params(v, "Progress of a long-running request.", {
        "progressToken": described("Token from the request's _meta.", ref("ProgressToken")),
        "progress": number("Work done so far; grows with every notification."),
        "total": number("Total work, when known."),
        "message": when(v.since("2025-03-26"), string("What is happening now.")),
    }, ["progressToken", "progress"]))

    d.add("LoggingLevel", enum(LOG_LEVELS, "Syslog severities, least to most severe."))
    if not v.modern:  # 2026-07-28 asks for log messages per request (_meta logLevel)
        d.add("SetLevelParams", request_params(v, "Least severe level the client wants to receive.", {
            "level": ref("LoggingLevel"),
        }, ["level"]))
    d.add("LoggingMessageParams", notification_params(v, "One log entry.", {
        "level": ref("LoggingLevel"),
        "logger": string("Which component logged it."),
        "data": {"description": "What was logged: any JSON value."},
    }, ["level", "data"]))

    d.add("PromptReference", obj("Completion target: a prompt's argument.", {
        "type": {"const": "ref/prompt"},
        "name": string("Prompt name."),
        "title": when(v.since("2025-06-18"), string("Display name.")),
    }, ["type", "name"]))
    # The resource reference was renamed when the spec made clear it names a template.
    resource_ref = "ResourceTemplateReference" if v.since("2025-06-18") else "ResourceReference"
    d.add(resource_ref, obj("Completion target: a variable of a resource template.", {
        "type": {"const": "ref/resource"},
        "uri": string("The URI template.", format="uri-template"),
    }, ["type", "uri"]))

    d.add("CompleteParams", request_params(v, "Ask for values that could complete an argument.", {
        "ref": dispatch("type", [("ref/prompt", ref("PromptReference")),
                                 ("ref/resource", ref(resource_ref))]),
        "argument": obj("The argument being typed.", {
            "name": string(),
            "value": string("What has been typed so far."),
        }, ["name", "value"]),
        "context": when(v.since("2025-06-18"), obj("Arguments already resolved.", {
            "arguments": map_of(string()),
        })),
    }, ["ref", "argument"]))
    d.add("CompleteResult", result(v, "Completion candidates.", {
        "completion": obj(None, {
            # The spec caps a response at 100 values.
            "values": array(string(), "Candidates, best first.", maxItems=100),
            "total": integer("How many candidates exist in all."),
            "hasMore": boolean("More candidates exist than were sent."),
        }, ["values"]),
    }, ["completion"]))
