"""The procrastinate job queue, driven in SQL inside the request's own transaction.

Deferring through procrastinate's SQL API (the same function its Python API calls) keeps
"create the run" and "enqueue its job" in one transaction: no job for a run that was rolled
back, no run whose job was lost. Workers (runner agents) use procrastinate's Python API.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

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
    return int(job_id)


def cancel_job(*, session: Session, job_id: int) -> bool:
    """Cancel a job that no worker has picked up yet; False if it already started."""
    cancelled = session.execute(
        text("SELECT procrastinate_cancel_job_v1(:id, false, false)"), {"id": job_id}
    ).scalar()
    return cancelled is not None
