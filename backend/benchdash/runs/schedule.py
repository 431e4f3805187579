"""Scheduled runs: the API queues each system's cron runs (its manifest's `[schedule]`).

Any API replica may look; a transaction-scoped advisory lock per system and the run's external
id (`schedule-<tick>`, unique per system) make one tick one run. A tick older than the grace
(the API was down then) is skipped, not caught up.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from croniter import croniter
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from benchdash.runs import lifecycle
from benchdash.runs.models import Run
from benchdash.runs.states import RunTrigger
from benchdash.systems import service as system_service
from benchdash.systems.models import System

_LOCK = text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))")


def last_tick(cron: str, now: datetime) -> datetime:
    """The latest time at or before `now` that `cron` names."""
    tick: datetime = croniter(cron, now + timedelta(microseconds=1)).get_prev(datetime)
    return tick


def queue_due(*, session: Session, now: datetime, grace_s: float) -> list[int]:
    """Queue the run of every system whose cron ticked within `grace_s`; returns their ids."""
    queued = []
    for system in session.scalars(select(System).where(System.manifest.is_not(None))).all():
        schedule = (system.manifest or {}).get("schedule") or {}
        cron = schedule.get("cron")
        if not cron or not croniter.is_valid(cron):
            continue
        tick = last_tick(cron, now)
        if (now - tick).total_seconds() > grace_s:
            continue
        external_id = f"schedule-{int(tick.timestamp())}"
        session.execute(_LOCK, {"key": f"benchdash-schedule:{system.slug}"})
        taken = session.scalar(
            select(Run.id).where(Run.system_id == system.id, Run.external_id == external_id)
        )
        if taken is not None:
            continue
        run = lifecycle.trigger(
            session=session,
            system=system.slug,
            ref=system_service.default_branch(session=session, system_id=system.id),
            profile=str(schedule.get("profile") or "quick"),
            benchmarks=None,
            trigger_kind=RunTrigger.SCHEDULE,
        )
        run.external_id = external_id
        session.flush()
        queued.append(run.id)
    return queued
