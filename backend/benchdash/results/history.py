"""Queries that feed the regression engine: earlier points of each series."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import and_, func, or_, select, tuple_
from sqlalchemy.orm import Session

from benchdash.regression.engine import HISTORY_FOR_Z, BaselinePoint
from benchdash.results.models import Measurement
from benchdash.runs.models import Run

SeriesKey = tuple[int, int]  # (benchmark_id, metric_id)


def recent_points(
    *,
    session: Session,
    branch_id: int,
    testbed_id: int,
    keys: Iterable[SeriesKey],
    before: tuple[datetime, int],
    limit: int = HISTORY_FOR_Z,
) -> dict[SeriesKey, list[BaselinePoint]]:
    """The newest `limit` accepted points of each series before `before` (newest first)."""
    keys = list(keys)
    if not keys:
        return {}
    started, run_id = before
    rank = (
        func.row_number()
        .over(
            partition_by=(Measurement.benchmark_id, Measurement.metric_id),
            order_by=(Run.started_at.desc(), Run.id.desc()),
        )
        .label("rank")
    )
    inner = (
        select(
            Measurement.benchmark_id,
            Measurement.metric_id,
            Measurement.run_id,
            Measurement.value,
            Measurement.samples,
            rank,
        )
        .join(Run, Run.id == Measurement.run_id)
        .where(
            Run.branch_id == branch_id,
            Run.testbed_id == testbed_id,
            Run.status == "completed",
            Run.accepted.is_(True),
            or_(Run.started_at < started, and_(Run.started_at == started, Run.id < run_id)),
            tuple_(Measurement.benchmark_id, Measurement.metric_id).in_(keys),
        )
        .subquery()
    )
    rows = session.execute(select(inner).where(inner.c.rank <= limit).order_by(inner.c.rank))
    out: dict[SeriesKey, list[BaselinePoint]] = {}
    for row in rows:
        out.setdefault((row.benchmark_id, row.metric_id), []).append(
            BaselinePoint(row.run_id, row.value, tuple(row.samples or ()))
        )
    return out


def pinned_points(
    *, session: Session, run_id: int, keys: Iterable[SeriesKey]
) -> dict[SeriesKey, BaselinePoint]:
    """The pinned run's measurement of each series it has."""
    keys = list(keys)
    if not keys:
        return {}
    rows = session.execute(
        select(Measurement).where(
            Measurement.run_id == run_id,
            tuple_(Measurement.benchmark_id, Measurement.metric_id).in_(keys),
        )
    ).scalars()
    return {
        (m.benchmark_id, m.metric_id): BaselinePoint(m.run_id, m.value, tuple(m.samples or ()))
        for m in rows
    }
