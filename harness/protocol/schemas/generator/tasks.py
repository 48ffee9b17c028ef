"""Tasks: durable handles for long-running requests. 2025-11-25 has them in the core protocol
(experimental); 2026-07-28 moved them into the io.modelcontextprotocol/tasks extension, redesigned:
a flat task handle with resultType "task", tasks/update to answer a task's input requests, the
state pushed as notifications/tasks on a listen stream, and no tasks/result or tasks/list."""

from core import array, dispatch, enum, integer, obj, ref, string
from envelope import notification_params, request_params, result

EXTENSION = "io.modelcontextprotocol/tasks"

STATUSES = ["working", "input_required", "completed", "failed", "cancelled"]


def task_members():
    return {
        "taskId": string("Chosen by the receiver."),
        "status": ref("TaskStatus"),
        "statusMessage": string("Human-readable state or failure detail."),
        "createdAt": string("ISO 8601 creation time."),
        "lastUpdatedAt": string("ISO 8601 time of the last status change."),
        "ttl": {"description": "Milliseconds the task is kept after creation; null = unlimited.",
                "type": ["integer", "null"]},
        "pollInterval": integer("Suggested milliseconds between polls."),
    }


TASK_REQUIRED = ["taskId", "status", "createdAt", "lastUpdatedAt", "ttl"]


def extension_members():
    return {
        "taskId": string("Chosen by the server."),
        "status": ref("TaskStatus"),
        "statusMessage": string("Human-readable state or failure detail."),
        "createdAt": string("ISO 8601 creation time."),
        "lastUpdatedAt": string("ISO 8601 time of the last status change."),
        "ttlMs": {"description": "Milliseconds the task is kept after creation; null = unlimited.",
                  "type": ["integer", "null"]},
        "pollIntervalMs": integer("Suggested milliseconds between polls."),
    }


EXTENSION_REQUIRED = ["taskId", "status", "createdAt", "lastUpdatedAt", "ttlMs"]
# What the full state of a task holds beyond the handle, by status.
STATUS_DETAIL = {
    "working": ({}, []),
    "input_required": ({"inputRequests": ref("InputRequests")}, ["inputRequests"]),
    "completed": ({"result": {"description": "The result of the request the task ran.", "type": "object"}},
                  ["result"]),
    "failed": ({"error": ref("RpcError")}, ["error"]),
    "cancelled": ({}, []),
}


def detailed(desc, extra, extra_required):
    """The full state of a task, its members depending on its status."""
    cases = []
    for status, (members, required) in STATUS_DETAIL.items():
        cases.append((status, obj(f"A {status} task.", {**extension_members(), **members, **extra},
                                  EXTENSION_REQUIRED + required + extra_required)))
    return dispatch("status", cases, desc)


def define_extension(v, d):
    d.add("TaskStatus", enum(STATUSES, "Lifecycle state of a task."))
    d.add("Task", obj("The handle of one task.", extension_members(), EXTENSION_REQUIRED))
    d.add("DetailedTask", detailed("Full state of a task.", {}, []))
    d.add("CreateTaskResult", obj("Answer to a request the server runs as a task: the handle.", {
        "_meta": ref("ResultMeta"),
        "resultType": {"const": "task"},
        **extension_members(),
    }, ["resultType"] + EXTENSION_REQUIRED))
    task_id = {"taskId": string("Task to act on.")}
    d.add("GetTaskParams", request_params(v, "Poll a task.", task_id, ["taskId"]))
    d.add("UpdateTaskParams", request_params(v, "Answer a task's input requests.", {
        **task_id, "inputResponses": ref("InputResponses")}, ["taskId", "inputResponses"]))
    d.add("CancelTaskParams", request_params(v, "Ask the server to stop a task.", task_id, ["taskId"]))
    d.add("GetTaskResult", detailed("Current state of the task; a final result, not a task handle.", {
        "_meta": ref("ResultMeta"), "resultType": {"const": "complete"}}, ["resultType"]))
    d.add("UpdateTaskResult", result(v, "The answers were accepted.", {}))
    d.add("CancelTaskResult", result(v, "The cancellation was received (the task may still finish).", {}))
    # Pushed on a subscriptions/listen stream whose filter named the task.
    d.add("TaskStatusParams", detailed("A task's new state.", {"_meta": ref("ListenNotificationMeta")}, ["_meta"]))


def define(v, d):
    if v.before("2025-11-25"):
        return
    if v.modern:
        define_extension(v, d)
        return
    d.add("TaskMetadata", obj("Asks for the request to run as a task.", {
        "ttl": integer("Requested lifetime in milliseconds."),
    }))
    d.add("RelatedTaskMetadata", obj("_meta entry tying a message to a task.", {
        "taskId": string(),
    }, ["taskId"]))
    d.add("TaskStatus", enum(STATUSES, "Lifecycle state of a task."))
    d.add("Task", obj("State of one task.", task_members(), TASK_REQUIRED))
    d.add("CreateTaskResult", result(v, "Answer to a request run as a task: the new task.", {
        "task": ref("Task"),
    }, ["task"]))

    task_id = {"taskId": string("Task to act on.")}
    d.add("GetTaskParams", request_params(v, "Poll a task.", task_id, ["taskId"]))
    d.add("GetTaskPayloadParams", request_params(v, "Fetch a finished task's result.", task_id, ["taskId"]))
    d.add("CancelTaskParams", request_params(v, "Stop a task.", task_id, ["taskId"]))
    d.add("GetTaskResult", result(v, "Current state of the task.", task_members(), TASK_REQUIRED))
    d.add("CancelTaskResult", result(v, "State of the task after cancelling.", task_members(), TASK_REQUIRED))
    d.add("GetTaskPayloadResult", result(v, "The result of the request the task ran, as that request defines it.", {}))
    d.add("ListTasksResult", result(v, "One page of tasks.", {
        "tasks": array(ref("Task")),
        "nextCursor": ref("Cursor"),
    }, ["tasks"]))
    d.add("TaskStatusParams", notification_params(v, "A task changed state.", task_members(), TASK_REQUIRED))
