"""The procrastinate job queue, driven in SQL inside the request's own transaction.

Deferring through procrastinate's SQL API (the same function its Python API calls) keeps
"create the run" and "enqueue its job" in one transaction: no job for a run that was rolled
back, no run whose job was lost. Runner agents never reach the database: they ask the API
for work (`runs.claim`), which takes the job for them here.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.runs import wakeups

RUN_TASK = "benchdash.run"


def queue_name(system: str) -> str:
    """The queue of a system's runner agents."""
    return f"system.{system}"


def defer_run(*, session: Session, system: str, run_id: int) -> int:
    """Enqueue the run's job on the system's queue; returns the job id."""
    args: dict[str, Any] = {"run_id": run_id}
    job_id = session.execute(
        text(
            "SELECT unnest(procrastinate_defer_jobs_v1(ARRAY[ROW(:queue, :task, 0, NULL, NULL, "
            "CAST(:args AS jsonb), NULL)::procrastinate_job_to_defer_v1]))"
        ),
        {"queue": queue_name(system), "task": RUN_TASK, "args": json.dumps(args)},
    ).scalar_one()
    wakeups.announce(session=session, system=system)  # on commit: waiting agents look
    return int(job_id)


def cancel_job(*, session: Session, job_id: int) -> bool:
    """Cancel a job that no worker has picked up yet; False if it already started."""
    cancelled = session.execute(
        text("SELECT procrastinate_cancel_job_v1(:id, false, false)"), {"id": job_id}
    ).scalar()
    return cancelled is not None


# The oldest job of the queue is marked taken and finished in one statement: the queue's work is
# handing a run to an agent; the run row tracks the rest (states, heartbeats, the reaper).
_TAKE = text(
    """
    WITH job AS (SELECT * FROM procrastinate_fetch_job_v2(ARRAY[CAST(:queue AS varchar)], NULL))
    SELECT job.id, CAST(job.args ->> 'run_id' AS bigint), procrastinate_finish_job_v1(
        job.id, CAST('succeeded' AS procrastinate_job_status), false) IS NULL
    FROM job WHERE job.id IS NOT NULL
    """
)


def take_job(*, session: Session, system: str) -> tuple[int, int] | None:
    """Take the next job of the system's queue for an agent: (job id, run id), or None."""
    row = session.execute(_TAKE, {"queue": queue_name(system)}).first()
    return None if row is None else (int(row[0]), int(row[1]))
