"""subscriptions/listen (2026-07-28): the one long-lived request on which a server sends change
notifications. Every message on that stream names the listen request in _meta, so a client with
several streams can tell them apart; the request's filter says which changes it wants."""

from core import array, boolean, described, obj, ref, string
from envelope import request_params


def define(v, d):
    if not v.modern:
        return
    d.add("SubscriptionFilter", obj("Which change notifications the stream should carry.", {
        "toolsListChanged": boolean("notifications/tools/list_changed"),
        "promptsListChanged": boolean("notifications/prompts/list_changed"),
        "resourcesListChanged": boolean("notifications/resources/list_changed"),
        "resourceSubscriptions": array(string(format="uri"), "Resources to watch for updates."),
        "taskIds": array(string(), "Tasks to watch (tasks extension)."),
    }))
    d.add("SubscriptionsListenParams", request_params(v, "Open a stream of change notifications.", {
        "notifications": ref("SubscriptionFilter"),
    }, ["notifications"]))
    d.add("ListenResultMeta", obj("_meta of the result that closes a listen stream.", {
        "io.modelcontextprotocol/serverInfo": described("The server program.", ref("Implementation")),
        "io.modelcontextprotocol/subscriptionId": described(
            "id of the subscriptions/listen request being closed.", ref("RequestId")),
    }, ["io.modelcontextprotocol/subscriptionId"]))
    d.add("SubscriptionsListenResult", obj("The stream ends gracefully.", {
        "_meta": ref("ListenResultMeta"),
        "resultType": {"const": "complete"},
    }, ["_meta", "resultType"]))
    d.add("SubscriptionsAcknowledgedParams", obj("First message of a stream: what it will carry.", {
        "_meta": ref("ListenNotificationMeta"),
        "notifications": described("The filter the server accepted.", ref("SubscriptionFilter")),
    }, ["_meta", "notifications"]))
    d.add("ListenNotificationParams", obj("Params of a change notification on a listen stream.", {
        "_meta": ref("ListenNotificationMeta"),
    }, ["_meta"]))
