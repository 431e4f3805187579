"""Scheduled runs: the API queues each system's cron runs (its manifest's `[schedule]`).

Any API replica may look; a transaction-scoped advisory lock per system and the run's external
id (`schedule-<tick>`, unique per system) make one tick one run. A tick older than the grace
(the API was down then) is skipped, not caught up.

A tick runs the newest commit of the default branch (asked of the system's source with `git
ls-remote`) and is skipped when that commit already has a run of the profile (any trigger,
cancelled ones aside): a quiet night measures nothing twice. A repository the API cannot read
gets a run of the branch by name, as before sources existed (the agent resolves it).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from croniter import croniter
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from benchdash.runs import lifecycle
from benchdash.runs.models import Run
from benchdash.runs.states import RunStatus, RunTrigger
from benchdash.systems import remote
from benchdash.systems import service as system_service
from benchdash.systems.models import System

_LOCK = text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))")


def last_tick(cron: str, now: datetime) -> datetime:
    """The latest time at or before `now` that `cron` names."""
    tick: datetime = croniter(cron, now + timedelta(microseconds=1)).get_prev(datetime)
    return tick


_SKIPPED: dict[str, str] = {}  # slug -> the tick this process found already measured


def queue_due(
    *, session: Session, now: datetime, grace_s: float, timeout_s: float = 0.0
) -> list[int]:
    """Queue the run of every system whose cron ticked within `grace_s`; returns their ids.
    `timeout_s` bounds the look-up of the default branch's head (0: run the branch by name)."""
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
        if taken is not None or _SKIPPED.get(system.slug) == external_id:
            continue
        branch = system_service.default_branch(session=session, system_id=system.id)
        profile = str(schedule.get("profile") or "quick")
        head = remote.head_of(system.source_url, branch, timeout_s)
        if head is not None and _measured(session, system.id, head, profile):
            _SKIPPED[system.slug] = external_id
            continue
        run = lifecycle.trigger(
            session=session,
            system=system.slug,
            ref=head or branch,
            branch=branch,
            profile=profile,
            benchmarks=None,
            trigger_kind=RunTrigger.SCHEDULE,
        )
        run.external_id = external_id
        session.flush()
        queued.append(run.id)
    return queued


def _measured(session: Session, system_id: int, sha: str, profile: str) -> bool:
    """Whether the commit has a run of the profile (queued, running or ended; not cancelled)."""
    found = session.scalar(
        select(Run.id)
        .where(Run.system_id == system_id, Run.profile == profile)
        .where((Run.commit == sha) | (Run.ref == sha), Run.status != RunStatus.CANCELLED)
        .limit(1)
    )
    return found is not None
