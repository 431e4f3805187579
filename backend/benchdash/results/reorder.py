"""Closed months of `measurement` rewritten in series order (CLUSTER on the series index).

Rows arrive a run at a time, so a month's partition holds each run's points side by side and
one series' points one per page: a 1,000-point read visits 1,000 pages, most of them not in
PostgreSQL's buffers once the data outgrows memory (at 20,000,000 stored, a 539-point read of
one month read 547 pages in 14.5 ms; the same read after CLUSTER read 21 pages in 0.3 ms). A
month nothing is uploaded into any more (it ended a day ago) is rewritten once in the order of
`ix_measurement_series_time`; PostgreSQL marks the index it clustered on, which is how a month
already done is known. A late upload into a reordered month is appended as usual.

CLUSTER holds an ACCESS EXCLUSIVE lock on the month's partition while it rewrites it (2.2 s for
554,000 rows on this 2-core machine): reads of that month wait, other months are not touched.
The hourly maintenance reorders one month per call, at most `max_rows` rows, and waits at most
`lock_timeout_ms` for its lock (so it never queues ahead of reads behind a long one);
`benchdash-server reorder` does every closed month at once, whatever its size.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from benchdash.kit.errors import NotFound
from benchdash.results.partitions import Month

log = logging.getLogger("benchdash")

SETTLE = timedelta(days=1)  # a month is closed this long after its end (late uploads)
AUTO_MAX_ROWS = 2_000_000  # the hourly maintenance leaves larger months to the command
_NAME = re.compile(r"^measurement_y(\d{4})m(\d{2})$")
_LOCK_KEY = 0x7265_6F72  # "reor": one reorder at a time, whichever process runs it
_STILL = text(
    "SELECT NOT EXISTS (SELECT 1 FROM pg_index c WHERE c.indisclustered "
    "AND c.indrelid = CAST(:name AS regclass))"
)
# Each month partition not yet clustered, with its copy of the series index and its size.
_UNORDERED = text(
    """SELECT p.relname, ix.relname, CAST(greatest(p.reltuples, 0) AS bigint)
    FROM pg_inherits pi JOIN pg_class p ON p.oid = pi.inhrelid
    JOIN pg_index i ON i.indrelid = p.oid
    JOIN pg_class ix ON ix.oid = i.indexrelid
    JOIN pg_inherits ii ON ii.inhrelid = ix.oid
        AND ii.inhparent = CAST('ix_measurement_series_time' AS regclass)
    WHERE pi.inhparent = CAST('measurement' AS regclass)
      AND NOT EXISTS (SELECT 1 FROM pg_index c WHERE c.indrelid = p.oid AND c.indisclustered)
    ORDER BY p.relname"""
)


@dataclass(frozen=True)
class Reordered:
    """One month rewritten: its partition, its rows, and how long it took."""

    partition: str
    rows: int
    seconds: float


def pending(*, session: Session, now: datetime) -> list[tuple[str, str, int]]:
    """The closed months not yet reordered, oldest first: (partition, index, estimated rows)."""
    if session.execute(text("SELECT to_regclass('measurement')")).scalar_one() is None:
        raise NotFound("no measurement table in this database: run `benchdash-server migrate`")
    out = []
    for name, index, rows in session.execute(_UNORDERED).all():
        found = _NAME.match(name)
        if found is None:
            continue
        month = Month(int(found[1]), int(found[2]))
        if month.plus(1).start + SETTLE <= now:
            out.append((name, index, rows))
    return out


def reorder(
    *,
    session: Session,
    now: datetime,
    limit: int | None = None,
    max_rows: int | None = None,
    lock_timeout_ms: int = 0,
    progress: Callable[[int, int, Reordered], None] | None = None,
) -> list[Reordered]:
    """CLUSTER (then ANALYZE) up to `limit` closed months of at most `max_rows` rows each, each
    in a transaction of its own (committed here). A month whose lock is not had within
    `lock_timeout_ms` (0: no bound) is left for the next call."""
    todo = [p for p in pending(session=session, now=now) if max_rows is None or p[2] <= max_rows]
    todo = todo[:limit] if limit is not None else todo
    session.commit()
    done: list[Reordered] = []
    for name, index, _ in todo:
        started = time.perf_counter()
        lock = session.execute(text("SELECT pg_try_advisory_xact_lock(:k)"), {"k": _LOCK_KEY})
        if not lock.scalar_one() or not session.execute(_STILL, {"name": name}).scalar_one():
            session.rollback()  # another process is at it, or has just done this month
            continue
        try:
            session.execute(text(f"SET LOCAL lock_timeout = {int(lock_timeout_ms)}"))
            session.execute(text("SET LOCAL statement_timeout = 0"))  # a big month takes long
            session.execute(text(f'CLUSTER "{name}" USING "{index}"'))
            session.execute(text(f'ANALYZE "{name}"'))
            rows = session.execute(text(f'SELECT count(*) FROM "{name}"')).scalar_one()
            session.commit()
        except DBAPIError as exc:  # e.g. a long read holds the month: next time
            session.rollback()
            log.warning("month %s not reordered: %s", name, str(exc.orig).strip())
            continue
        done.append(Reordered(name, rows, time.perf_counter() - started))
        if progress is not None:
            progress(len(done), len(todo), done[-1])
    if done:
        log.info("reordered %s", ", ".join(d.partition for d in done))
    return done
