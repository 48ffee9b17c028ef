"""Tasks (2025-11-25, experimental): durable handles for long-running requests."""

from core import array, enum, integer, obj, ref, string
from envelope import notification_params, request_params, result

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


def define(v, d):
    if v.before("2025-11-25"):
        return
    d.add("TaskMetadata", obj("Asks for the request to run as a task.", {
        "ttl": integer("Requested lifetime in milliseconds."),
    }))
    d.add("RelatedTaskMetadata", obj("_meta entry tying a message to a task.", {
        "taskId": string(),
    }, ["taskId"]))
    d.add("TaskStatus", enum(STATUSES, "Lifecycle state of a task."))
    d.add("Task", obj("State of one task.", task_members(), TASK_REQUIRED))
    d.add("CreateTaskResult", result("Answer to a request run as a task: the new task.", {
        "task": ref("Task"),
    }, ["task"]))

    task_id = {"taskId": string("Task to act on.")}
    d.add("GetTaskParams", request_params("Poll a task.", task_id, ["taskId"]))
    d.add("GetTaskPayloadParams", request_params("Fetch a finished task's result.", task_id, ["taskId"]))
    d.add("CancelTaskParams", request_params("Stop a task.", task_id, ["taskId"]))
    d.add("GetTaskResult", result("Current state of the task.", task_members(), TASK_REQUIRED))
    d.add("CancelTaskResult", result("State of the task after cancelling.", task_members(), TASK_REQUIRED))
    d.add("GetTaskPayloadResult", result("The result of the request the task ran, as that request defines it.", {}))
    d.add("ListTasksResult", result("One page of tasks.", {
        "tasks": array(ref("Task")),
        "nextCursor": ref("Cursor"),
    }, ["tasks"]))
    d.add("TaskStatusParams", notification_params("A task changed state.", task_members(), TASK_REQUIRED))
