"""The earlier points of every series of a document, in one indexed query per branch.

Each measurement carries its series id and its run's start time, so the history of a series
is a range scan of `ix_measurement_series_time`. The series of a whole document are looked
up together by joining arrays (`unnest`), never by a list of tuples that grows with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.regression.model import Point, Stage

SeriesKey = tuple[int, int]  # (benchmark_id, metric_id)

_HISTORY = text(
    """
    SELECT k.b AS benchmark_id, k.m AS metric_id, h.run_id, h.value, h.samples, h.commit,
           h.stage, h.restart
    FROM unnest(CAST(:benchmarks AS int[]), CAST(:metrics AS int[])) AS k(b, m)
    JOIN series s ON s.benchmark_id = k.b AND s.metric_id = k.m
                 AND s.branch_id = :branch AND s.testbed_id = :testbed
    CROSS JOIN LATERAL (
        SELECT m.run_id, m.value, m.samples, r.commit, v.stage,
               EXISTS (SELECT 1 FROM series_restart sr
                       WHERE sr.series_id = s.id AND sr.run_id = m.run_id) AS restart
        FROM measurement m JOIN run r ON r.id = m.run_id
        LEFT JOIN verdict v ON v.measurement_id = m.id
        WHERE m.series_id = s.id AND r.accepted
          AND (m.started_at, m.run_id) < (:started_at, :run_id)
        ORDER BY m.started_at DESC, m.run_id DESC
        LIMIT :limit
    ) AS h
    """
)


def recent_points(
    *,
    session: Session,
    branch_id: int,
    testbed_id: int,
    keys: Sequence[SeriesKey],
    before: tuple[datetime, int],
    limit: int,
) -> dict[SeriesKey, list[Point]]:
    """The newest `limit` accepted points of each series before `before`, oldest first."""
    if not keys:
        return {}
    rows = session.execute(
        _HISTORY,
        {
            "benchmarks": [k[0] for k in keys],
            "metrics": [k[1] for k in keys],
            "branch": branch_id,
            "testbed": testbed_id,
            "started_at": before[0],
            "run_id": before[1],
            "limit": limit,
        },
    )
    out: dict[SeriesKey, list[Point]] = {}
    for b, m, run_id, value, samples, commit, stage, restart in rows:
        point = Point(
            run_id,
            value,
            commit,
            tuple(samples or ()),
            Stage(stage) if stage else None,
            bool(restart),
        )
        out.setdefault((b, m), []).append(point)
    for points in out.values():
        points.reverse()
    return out


def pinned_points(
    *, session: Session, run_id: int, keys: Sequence[SeriesKey]
) -> dict[SeriesKey, Point]:
    """The pinned run's measurement of each series it has."""
    if not keys:
        return {}
    rows = session.execute(
        text(
            """
            SELECT m.benchmark_id, m.metric_id, m.run_id, m.value, m.samples, r.commit
            FROM unnest(CAST(:benchmarks AS int[]), CAST(:metrics AS int[])) AS k(b, m)
            JOIN measurement m ON m.run_id = :run AND m.benchmark_id = k.b AND m.metric_id = k.m
            JOIN run r ON r.id = m.run_id
            """
        ),
        {"benchmarks": [k[0] for k in keys], "metrics": [k[1] for k in keys], "run": run_id},
    )
    return {(b, m): Point(rid, v, c, tuple(s or ())) for b, m, rid, v, s, c in rows}
