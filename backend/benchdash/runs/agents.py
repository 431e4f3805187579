"""Runner agents' heartbeats: which systems have an agent online right now.

Each agent says it is alive every few seconds, busy or idle (a thread of its own). A system
whose agents have all been silent longer than the heartbeat timeout has none online: a run
queued for it gets a warning, and fails after BENCHDASH_NO_AGENT_WAIT_S (lifecycle.reap_unserved).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import Select, delete, func, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from benchdash.db import utcnow
from benchdash.runs.models import RunnerAgent
from benchdash.systems import service as system_service

FORGET_AFTER = timedelta(days=7)  # an agent silent this long is dropped from the table


def heartbeat(*, session: Session, slug: str, name: str, host: str | None, live_s: float) -> int:
    """Note that agent `name` of `slug` is alive; returns how many of its agents are."""
    system = system_service.get_by_slug(session=session, slug=slug)
    now = utcnow()
    session.execute(
        insert(RunnerAgent)
        .values(system_id=system.id, name=name, host=host, first_seen_at=now, last_seen_at=now)
        .on_conflict_do_update(
            index_elements=["system_id", "name"], set_={"last_seen_at": now, "host": host}
        )
    )
    return live(session=session, system_id=system.id, live_s=live_s)


def live(*, session: Session, system_id: int, live_s: float) -> int:
    """How many agents of the system sent a heartbeat within `live_s` seconds."""
    count = session.scalar(
        select(func.count())
        .select_from(RunnerAgent)
        .where(RunnerAgent.system_id == system_id, RunnerAgent.last_seen_at >= _since(live_s))
    )
    return int(count or 0)


def served_systems(live_s: float) -> Select[tuple[int]]:
    """The ids of systems with an agent online (a subquery)."""
    return select(RunnerAgent.system_id).where(RunnerAgent.last_seen_at >= _since(live_s))


def forget_silent(*, session: Session) -> int:
    """Drop agents silent for a week (each restart of an agent is a new name)."""
    gone = session.execute(
        delete(RunnerAgent).where(RunnerAgent.last_seen_at < utcnow() - FORGET_AFTER)
    )
    return int(getattr(gone, "rowcount", 0) or 0)


def no_agent_warning(system: str, wait_s: float) -> str:
    """What POST /api/v1/runs says when no agent of the system is online."""
    after = f"fails after {wait_s:.0f} s" if wait_s > 0 else "waits"
    return (
        f"no runner agent of {system} is online: the run waits for one and {after} "
        f"(start `benchdash-runner --system {system}`)"
    )


def _since(seconds: float) -> datetime:
    return utcnow() - timedelta(seconds=seconds)
