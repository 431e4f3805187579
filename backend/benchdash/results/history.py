"""The earlier points of every series of a document, in one indexed query per branch.

Each measurement carries its series id and its run's start time, so the history of a series
is a range scan of `ix_measurement_series_time`; a point's stage is the measurement's copy of
its verdict's. The series of a whole document are looked up together by joining arrays
(`unnest`), never by a list of tuples that grows with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import orjson
from sqlalchemy import TextClause
from sqlalchemy.orm import Session

from benchdash.kit.arrays import typed_text
from benchdash.regression.model import Point, Stage

SeriesKey = tuple[int, int]  # (benchmark_id, metric_id)

# `measurement` is partitioned by month: unbounded below, a series' newest points are looked
# for in every month (each partition's index entered, planned, for each series). The last
# RECENT_DAYS hold them for a series run often enough; only the series they do not fill are
# read again without the bound (the same answer either way). The upper bound, implied by the
# row comparison, is spelled out: PostgreSQL prunes on it, not on the row.
RECENT_DAYS = 120
_HISTORY = """
    SELECT k.b AS benchmark_id, k.m AS metric_id, h.points
    FROM unnest(CAST(:benchmarks AS int[]), CAST(:metrics AS int[])) AS k(b, m)
    JOIN LATERAL (
        SELECT se.id, coalesce((SELECT array_agg(sr.run_id) FROM series_restart sr
                                WHERE sr.series_id = se.id), '{}') AS restarts
        FROM series se
        WHERE se.benchmark_id = k.b AND se.metric_id = k.m
          AND se.branch_id = :branch AND se.testbed_id = :testbed
    ) AS s ON true
    CROSS JOIN LATERAL (
        SELECT json_agg(json_build_array(t.run_id, t.value, t.commit, t.stage, t.restart,
                                         t.samples) ORDER BY t.started_at, t.run_id)::text AS points
        FROM (
            SELECT m.run_id, m.value, m.samples, r.commit, m.stage, m.started_at,
                   m.run_id = ANY(s.restarts) AS restart
            FROM measurement m JOIN run r ON r.id = m.run_id
            WHERE m.series_id = s.id AND r.accepted {since} AND m.started_at <= :started_at
              AND (m.started_at, m.run_id) < (:started_at, :run_id)
            ORDER BY m.started_at DESC, m.run_id DESC
            LIMIT :limit
        ) AS t
    ) AS h
    WHERE h.points IS NOT NULL
    """
_RECENT = typed_text(_HISTORY.replace("{since}", "AND m.started_at >= :since"))
_ALL = typed_text(_HISTORY.replace("{since}", ""))


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
    params = {
        "branch": branch_id,
        "testbed": testbed_id,
        "started_at": before[0],
        "run_id": before[1],
        "limit": limit,
        "since": before[0] - timedelta(days=RECENT_DAYS),
    }
    found = _points(session, _RECENT, keys, params)
    short = [k for k in keys if len(found.get(k, ())) < limit]
    if short:
        found.update(_points(session, _ALL, short, params))
    return found


def _points(
    session: Session, query: TextClause, keys: Sequence[SeriesKey], params: dict[str, Any]
) -> dict[SeriesKey, list[Point]]:
    rows = session.execute(
        query,
        {"benchmarks": [k[0] for k in keys], "metrics": [k[1] for k in keys], **params},
    )
    # One row per series, its points as one JSON array (oldest first): a few rows to fetch
    # instead of one per point, parsed by orjson (as text: psycopg would use the stdlib's).
    return {
        (b, m): [
            Point(
                run_id,
                float(value),
                commit,
                tuple(samples or ()),
                Stage(stage) if stage else None,
                bool(restart),
            )
            for run_id, value, commit, stage, restart, samples in orjson.loads(points)
        ]
        for b, m, points in rows
    }


def pinned_points(
    *, session: Session, run_id: int, keys: Sequence[SeriesKey]
) -> dict[SeriesKey, Point]:
    """The pinned run's measurement of each series it has."""
    if not keys:
        return {}
    rows = session.execute(
        typed_text(
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
