"""Runner agents ask the API for work; they never reach the database.

An agent polls `POST /api/v1/systems/{slug}/agents/claim`. The API takes the oldest job of the
system's queue for it, unless its host is busy with another run (one benchmark per host, for
every system): claims of one host are serialised by a transaction-scoped advisory lock, and a
host is busy while a run of an agent on it is active, or taken and not yet started, with a
fresh heartbeat. A taken run stays `queued` with its agent set until the agent's first report;
the reaper fails it if the agent goes silent in between.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.db import utcnow
from benchdash.runs import agents, lifecycle, queue
from benchdash.runs.states import ACTIVE, RunStatus

_HOST_LOCK = text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))")
_BUSY = text(
    f"""
    SELECT r.id FROM run r JOIN runner_agent a ON a.name = r.agent AND a.host = :host
    WHERE (r.status IN ({",".join(f"'{s}'" for s in ACTIVE)})
           OR (r.status = '{RunStatus.QUEUED}' AND r.agent IS NOT NULL))
      AND r.heartbeat_at >= :fresh
    ORDER BY r.id LIMIT 1
    """
)


@dataclass(frozen=True, kw_only=True)
class Claim:
    """A run for the agent, or why there is none (None: the queue is empty)."""

    run_id: int | None
    reason: str | None = None


def claim(
    *, session: Session, slug: str, name: str, host: str | None, live_s: float, stale_s: float
) -> Claim:
    """Take the next queued run of `slug` for agent `name` on `host`, if its host is free."""
    where = host or name
    agents.heartbeat(session=session, slug=slug, name=name, host=where, live_s=live_s)
    session.execute(_HOST_LOCK, {"key": f"benchdash-host:{where}"})
    fresh = utcnow() - timedelta(seconds=stale_s)
    busy = session.execute(_BUSY, {"host": where, "fresh": fresh}).scalar()
    if busy is not None:
        return Claim(run_id=None, reason=f"host {where} is busy with run {busy}")
    taken = queue.take_job(session=session, system=slug)
    if taken is None:
        return Claim(run_id=None)
    run = lifecycle.get_for_update(session=session, run_id=taken[1])
    if run.status != RunStatus.QUEUED:  # cancelled or failed between its job and now
        return Claim(run_id=None, reason=f"run {run.id} is {run.status}")
    run.agent, run.heartbeat_at = name, utcnow()
    lifecycle.add_event(
        session=session,
        run_id=run.id,
        kind="log",
        data={"lines": [f"taken by agent {name} on host {where}"]},
    )
    session.flush()
    return Claim(run_id=run.id)
