"""A backtest's reads: the series it names (404 for what the system lacks), their newest
accepted points and their stored alerts, read in a READ ONLY savepoint that is rolled back
(PostgreSQL itself refuses a write there), then the replay (`service.py`).

The work is bounded before any point is read: the points to replay, summed over the series
(each at most `max_runs`), must not exceed MAX_POINTS, else 422 names both and what to narrow.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import Row, func, literal, select, text
from sqlalchemy.orm import Session

from benchdash.backtest import service
from benchdash.backtest.schemas import MAX_POINTS, BacktestAlert, BacktestRead, BacktestRequest
from benchdash.kit.arrays import typed_text
from benchdash.kit.errors import InvalidInput, NotFound
from benchdash.regression import engine
from benchdash.regression.model import Point
from benchdash.results.models import Measurement, Series
from benchdash.runs.models import Run
from benchdash.systems.models import Benchmark, Branch, Metric, System, Testbed


@contextmanager
def read_only(session: Session) -> Iterator[None]:
    """Run the block in a savepoint PostgreSQL holds read only, rolled back afterwards."""
    nested = session.begin_nested()
    try:
        session.execute(text("SET TRANSACTION READ ONLY"))
        yield
    finally:
        nested.rollback()


@dataclass(frozen=True)
class Scope:
    """What the request names, resolved to ids."""

    system_id: int
    branch_id: int
    testbed_id: int | None
    benchmark_id: int | None
    metric_id: int | None


def _scope(session: Session, r: BacktestRequest) -> Scope:
    system = session.scalar(select(System.id).where(System.slug == r.system))
    if system is None:
        raise NotFound(f"no system {r.system!r}")
    branch = session.scalar(
        select(Branch.id).where(Branch.system_id == system, Branch.name == r.branch)
    )
    if branch is None:
        raise NotFound(f"system {r.system!r} has no branch {r.branch!r}")
    testbed = None
    if r.testbed is not None:
        testbed = session.scalar(select(Testbed.id).where(Testbed.name == r.testbed))
        if testbed is None:
            raise NotFound(f"no testbed {r.testbed!r}")
    rows = session.execute(select(Metric.name, Metric.id).where(Metric.system_id == system))
    metrics = {name: mid for name, mid in rows}
    for name in [o.metric for o in r.overrides] + ([r.metric] if r.metric else []):
        if name not in metrics:
            raise NotFound(f"system {r.system!r} has no metric {name!r}")
    if r.benchmark_id is not None and not session.scalar(
        select(Benchmark.id).where(Benchmark.id == r.benchmark_id, Benchmark.system_id == system)
    ):
        raise NotFound(f"system {r.system!r} has no benchmark with id {r.benchmark_id}")
    metric = metrics[r.metric] if r.metric else None
    return Scope(system, branch, testbed, r.benchmark_id, metric)


def _series(session: Session, s: Scope, max_runs: int) -> list[Row[Any]]:
    accepted = (
        select(literal(1))
        .select_from(Measurement)
        .join(Run, Run.id == Measurement.run_id)
        .where(Measurement.series_id == Series.id, Run.accepted)
        .limit(max_runs)
        .correlate(Series)
        .subquery()
    )
    runs = select(func.count()).select_from(accepted).scalar_subquery()
    q = (
        select(
            Series.id,
            Benchmark.id.label("benchmark_id"),
            Benchmark.name.label("benchmark"),
            Benchmark.parameters,
            Benchmark.params_key,
            Metric.name.label("metric"),
            Metric.unit,
            Metric.direction,
            Metric.warn_threshold,
            Metric.fail_threshold,
            Testbed.name.label("testbed"),
            runs.label("runs"),
        )
        .join(Benchmark, Benchmark.id == Series.benchmark_id)
        .join(Metric, Metric.id == Series.metric_id)
        .join(Testbed, Testbed.id == Series.testbed_id)
        .where(Series.system_id == s.system_id, Series.branch_id == s.branch_id)
        .order_by(Benchmark.name, Benchmark.params_key, Metric.name, Testbed.name)
    )
    if s.testbed_id is not None:
        q = q.where(Series.testbed_id == s.testbed_id)
    if s.benchmark_id is not None:
        q = q.where(Series.benchmark_id == s.benchmark_id, Series.metric_id == s.metric_id)
    return [row for row in session.execute(q) if row.runs]


_POINTS = typed_text(
    """
    SELECT s.id, h.points
    FROM unnest(CAST(:series AS int[])) AS s(id)
    CROSS JOIN LATERAL (
        SELECT json_agg(json_build_array(t.run_id, t.value, t.commit, t.restart, t.samples,
                                         t.started_at) ORDER BY t.started_at, t.run_id)::text
               AS points
        FROM (
            SELECT m.run_id, m.value, m.samples, r.commit, m.started_at,
                   EXISTS (SELECT 1 FROM series_restart sr
                           WHERE sr.series_id = s.id AND sr.run_id = m.run_id) AS restart
            FROM measurement m JOIN run r ON r.id = m.run_id
            WHERE m.series_id = s.id AND r.accepted
            ORDER BY m.started_at DESC, m.run_id DESC
            LIMIT :limit
        ) AS t
    ) AS h
    WHERE h.points IS NOT NULL
    """
)

_ALERTS = typed_text(
    """
    SELECT se.id AS series_id, a.id, a.kind, a.level, a.run_id, r.commit, r.started_at,
           a.change_pct, a.confirmed_by, a.status
    FROM unnest(CAST(:series AS int[])) AS k(id)
    JOIN series se ON se.id = k.id
    JOIN alert a ON a.benchmark_id = se.benchmark_id AND a.metric_id = se.metric_id
                AND a.branch_id = se.branch_id AND a.testbed_id = se.testbed_id
    JOIN run r ON r.id = a.run_id
    ORDER BY r.started_at, a.id
    """
)


def _points(session: Session, ids: list[int], limit: int) -> dict[int, list[tuple[Any, ...]]]:
    """Each series' newest `limit` accepted points, oldest first: (run_id, value, commit,
    restart, samples, started_at) — what the ingest's history read gives the detector."""
    rows = session.execute(_POINTS, {"series": ids, "limit": limit})
    return {sid: [tuple(p) for p in orjson.loads(points)] for sid, points in rows}


def _stored(row: Row[Any], points: list[tuple[Any, ...]], alerts: list[Row[Any]]) -> service.Stored:
    pts = [
        Point(run_id, float(value), commit, tuple(samples or ()), None, bool(restart))
        for run_id, value, commit, restart, samples, _ in points
    ]
    runs = {p.run_id for p in pts}
    did = [
        BacktestAlert(
            kind=a.kind,
            level=a.level,
            run_id=a.run_id,
            commit=a.commit,
            started_at=a.started_at,
            change_pct=a.change_pct,
            confirmed_by=a.confirmed_by,
            alert_id=a.id,
            status=a.status,
        )
        for a in alerts
        if a.run_id in runs
    ]
    meta = {
        k: getattr(row, k)
        for k in ("benchmark", "benchmark_id", "parameters", "params_key", "metric", "unit")
    }
    return service.Stored(
        meta={**meta, "testbed": row.testbed},
        direction=row.direction,
        current=engine.Thresholds(row.warn_threshold, row.fail_threshold),
        points=pts,
        started=[datetime.fromisoformat(p[5]) for p in points],
        did_open=did,
    )


def backtest(*, session: Session, request: BacktestRequest) -> BacktestRead:
    """Replay the series `request` names under its thresholds (module docstring)."""
    with read_only(session):
        rows = _series(session, _scope(session, request), request.max_runs)
        work = sum(r.runs for r in rows)
        if work > MAX_POINTS:
            raise InvalidInput(
                f"this backtest would replay {work:,} points ({len(rows)} series, up to "
                f"{request.max_runs} runs each); the limit is {MAX_POINTS:,} points "
                "(series × runs): choose one series or one testbed, or fewer runs (max_runs)"
            )
        ids = [r.id for r in rows]
        points = _points(session, ids, request.max_runs) if ids else {}
        alerts: dict[int, list[Row[Any]]] = {}
        for a in session.execute(_ALERTS, {"series": ids}) if ids else ():
            alerts.setdefault(a.series_id, []).append(a)
    stored = [_stored(r, points[r.id], alerts.get(r.id, [])) for r in rows if r.id in points]
    series = [
        service.replay_series(s, service.thresholds_for(s.meta["metric"], request)) for s in stored
    ]
    return BacktestRead(
        system=request.system,
        branch=request.branch,
        testbed=request.testbed,
        warn=request.warn,
        fail=request.fail,
        overrides=request.overrides,
        max_runs=request.max_runs,
        limit=MAX_POINTS,
        series=series,
        totals=service.totals(series),
    )
