"""The run state machine and trigger kinds, shared by the table, the wire and the services.

queued → building → running → uploading → completed | failed | cancelled | timed_out.
"""

from __future__ import annotations

from enum import StrEnum


class RunStatus(StrEnum):
    """Where a run is in its life."""

    QUEUED = "queued"
    BUILDING = "building"
    RUNNING = "running"
    UPLOADING = "uploading"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"
    TIMED_OUT = "timed_out"


class RunTrigger(StrEnum):
    """What started a run: CI, a person (CLI, web), the cron, a re-run, a bisection, the demo,
    a git host's push webhook (hooks)."""

    CI = "ci"
    MANUAL = "manual"
    SCHEDULE = "schedule"
    WEB = "web"
    RERUN = "rerun"
    BISECT = "bisect"
    DEMO = "demo"
    PUSH = "push"


ACTIVE = (RunStatus.BUILDING, RunStatus.RUNNING, RunStatus.UPLOADING)
TERMINAL = (RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.CANCELLED, RunStatus.TIMED_OUT)
NEXT: dict[RunStatus, tuple[RunStatus, ...]] = {
    RunStatus.QUEUED: (
        RunStatus.BUILDING,
        RunStatus.RUNNING,
        RunStatus.FAILED,
        RunStatus.CANCELLED,
    ),
    RunStatus.BUILDING: (
        RunStatus.RUNNING,
        RunStatus.FAILED,
        RunStatus.CANCELLED,
        RunStatus.TIMED_OUT,
    ),
    RunStatus.RUNNING: (
        RunStatus.UPLOADING,
        RunStatus.FAILED,
        RunStatus.CANCELLED,
        RunStatus.TIMED_OUT,
    ),
    RunStatus.UPLOADING: (RunStatus.FAILED, RunStatus.CANCELLED, RunStatus.TIMED_OUT),
}
