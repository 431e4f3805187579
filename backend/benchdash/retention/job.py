"""The rules carried out: runs deleted and samples summarised in small batches, a short
transaction each (committed here), so uploads beside it never wait long; audited with counts.

Each batch takes its runs' rows with `FOR UPDATE SKIP LOCKED` and checks again, in its own
transaction, that nothing has come to name them since the plan was made (an alert opened, a
bisection started): such a run is left alone. Its measurements are deleted by run (the
`(run_id, …)` key of each month's partition finds them; verdicts go with them, as do resolved
alerts that named the run), then the run (events and profiles with it). A batch whose locks are
not had within `LOCK_TIMEOUT_MS` is skipped and left for the next day.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, TextClause, select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from benchdash.audit import service as audit_service
from benchdash.audit.models import AuditEvent
from benchdash.db import background, get_engine, utcnow
from benchdash.kit.arrays import typed_text
from benchdash.retention import plan as planning

log = logging.getLogger("benchdash")

BATCH_RUNS = 50  # runs per transaction: a few thousand measurements, tens of milliseconds
LOCK_TIMEOUT_MS = 500
EVERY = timedelta(days=1)
ACTION = "retention.applied"
_LOCK_KEY = 0x7265_7465  # "rete": one retention job at a time, whichever process runs it
_HELD = f"SELECT run_id FROM ({planning.PROTECTED}) AS h(run_id) WHERE run_id IS NOT NULL"
_TAKE = typed_text(
    "SELECT id FROM run WHERE id = ANY(CAST(:ids AS int[])) "
    f"AND id NOT IN ({_HELD}) ORDER BY id FOR UPDATE SKIP LOCKED"
)
_DELETE_MEASUREMENTS = typed_text("DELETE FROM measurement WHERE run_id = ANY(CAST(:ids AS int[]))")
_DELETE_RUNS = typed_text("DELETE FROM run WHERE id = ANY(CAST(:ids AS int[]))")
_SUMMARISE = typed_text(
    "UPDATE measurement SET samples = '{}' "
    "WHERE run_id = ANY(CAST(:ids AS int[])) AND cardinality(samples) > 0"
)


@dataclass
class Outcome:
    """What one application did."""

    deleted_runs: int = 0
    deleted_measurements: int = 0
    summarised_runs: int = 0
    summarised_measurements: int = 0
    kept_runs: int = 0
    skipped_batches: int = 0
    batches: int = 0
    longest_s: float = 0.0


Progress = Callable[[int, int, Outcome], None]


def _batches(ids: list[int]) -> Iterator[list[int]]:
    for i in range(0, len(ids), BATCH_RUNS):
        yield ids[i : i + BATCH_RUNS]


def _changed(session: Session, statement: TextClause, ids: list[int]) -> int:
    result = cast("CursorResult[Any]", session.execute(statement, {"ids": ids}))
    return int(result.rowcount)


def _batch(session: Session, ids: list[int], delete: bool, out: Outcome) -> None:
    started = time.perf_counter()
    try:
        session.execute(text(f"SET LOCAL lock_timeout = {int(LOCK_TIMEOUT_MS)}"))
        taken = list(session.execute(_TAKE, {"ids": ids}).scalars())
        if taken and delete:
            out.deleted_measurements += _changed(session, _DELETE_MEASUREMENTS, taken)
            out.deleted_runs += _changed(session, _DELETE_RUNS, taken)
        elif taken:
            out.summarised_measurements += _changed(session, _SUMMARISE, taken)
            out.summarised_runs += len(taken)
        session.commit()
    except DBAPIError as exc:  # a lock not had in time: tomorrow
        session.rollback()
        out.skipped_batches += 1
        log.warning("retention: a batch of %d runs skipped: %s", len(ids), str(exc.orig).strip())
        return
    out.batches += 1
    out.longest_s = max(out.longest_s, time.perf_counter() - started)


def apply(
    *, session: Session, now: datetime, by: str = "retention", progress: Progress | None = None
) -> Outcome:
    """Carry out the stored rules as of `now`, batch by batch, then audit the counts."""
    session.execute(text("SET LOCAL statement_timeout = 0"))  # the plan reads every old run
    work = planning.make(session=session, now=now)
    session.commit()
    out = Outcome(kept_runs=sum(len(b.kept) for b in work.branches))
    todo = [(b, True) for b in _batches(work.delete)]
    todo += [(b, False) for b in _batches(work.summarise)]
    for i, (ids, delete) in enumerate(todo, start=1):
        _batch(session, ids, delete, out)
        if progress is not None:
            progress(i, len(todo), out)
    detail = {k: v for k, v in vars(out).items() if k != "longest_s"}
    detail["longest_ms"] = round(out.longest_s * 1000, 1)
    audit_service.record(
        session=session, actor=by, action=ACTION, target="retention", detail=detail
    )
    session.commit()
    log.info("retention: %s", detail)
    return out


@contextmanager
def only_one() -> Iterator[bool]:
    """Whether this process holds the job's lock (a session lock on a connection of its own,
    held for the job's many transactions); another process at it: False."""
    with get_engine().connect() as conn:
        got = bool(conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": _LOCK_KEY}).scalar())
        try:
            yield got
        finally:
            if got:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _LOCK_KEY})
            conn.rollback()


def due(*, session: Session, now: datetime) -> bool:
    """Whether a day has passed since the rules were last applied (or they never were)."""
    last = session.scalar(select(AuditEvent.at).where(AuditEvent.action == ACTION).order_by(
        AuditEvent.at.desc()).limit(1))  # fmt: skip
    return last is None or last + EVERY <= now


def daily() -> Outcome | None:
    """The API's hourly look: apply the rules when a day has passed since they last were (one
    process at a time); None when not due or another process is at it."""
    with only_one() as mine:
        if not mine:
            return None
        with background("retention") as session:
            if not due(session=session, now=utcnow()):
                return None
            return apply(session=session, now=utcnow())
