"""The series batch: every series of a system's branch on one testbed in one answer.

The views (testbed × profile, for the page's selector), the series with their newest state,
their points (decimated in SQL and kept between reads: `chart_cache`), and their steps and
accepted changes.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import TextClause, text
from sqlalchemy.orm import Session

from benchdash.alerts.states import ACTIVE_ALERTS
from benchdash.bisect import culprits
from benchdash.kit.arrays import typed_text
from benchdash.kit.caching import etag_matches
from benchdash.kit.errors import NotFound
from benchdash.kit.sql import sql_in
from benchdash.runs import environment
from benchdash.series import batch_shape, chart_cache

# A run's measurements carry its start (the partition key): one month looked in per run, a
# lookup each (as EXISTS, PostgreSQL hashed every month's rows instead).
_VIEWS = text(
    """SELECT t.name, r.profile, count(*), max(r.started_at),
        (SELECT count(*) FROM series s WHERE s.system_id = sy.id AND s.branch_id = br.id
            AND s.testbed_id = t.id)
    FROM run r JOIN system sy ON sy.id = r.system_id JOIN branch br ON br.id = r.branch_id
    JOIN testbed t ON t.id = r.testbed_id
    WHERE sy.slug = :system AND br.name = :branch AND r.accepted
      AND (SELECT 1 FROM measurement m WHERE m.run_id = r.id
          AND m.started_at = r.started_at LIMIT 1) IS NOT NULL
    GROUP BY sy.id, br.id, t.id, t.name, r.profile
    ORDER BY max(r.started_at) DESC, count(*) DESC, t.name, r.profile NULLS FIRST"""
)
_SERIES = text(
    f"""SELECT s.id, b.name, b.id, b.params_key, b.parameters, mt.name,
        EXISTS (SELECT 1 FROM alert a WHERE a.benchmark_id = s.benchmark_id
            AND a.metric_id = s.metric_id AND a.branch_id = s.branch_id
            AND a.testbed_id = s.testbed_id AND a.status IN ({sql_in(ACTIVE_ALERTS)}))
    FROM series s JOIN system sy ON sy.id = s.system_id JOIN branch br ON br.id = s.branch_id
    JOIN testbed t ON t.id = s.testbed_id
    JOIN benchmark b ON b.id = s.benchmark_id JOIN metric mt ON mt.id = s.metric_id
    WHERE sy.slug = :system AND br.name = :branch AND t.name = :testbed"""
)
_KEPT_VIEWS = text(
    """SELECT DISTINCT c.view FROM series_chart c JOIN series s ON s.id = c.series_id
    JOIN system sy ON sy.id = s.system_id JOIN branch br ON br.id = s.branch_id
    JOIN testbed t ON t.id = s.testbed_id
    WHERE sy.slug = :system AND br.name = :branch AND t.name = :testbed ORDER BY c.view"""
)
_VIEW_IDS = text(
    """SELECT sy.id, br.id, t.id FROM system sy JOIN branch br ON br.system_id = sy.id
    JOIN testbed t ON t.name = :testbed WHERE sy.slug = :system AND br.name = :branch"""
)
_BOUNDS = {
    "since": "m.started_at >= :since",
    "until": "m.started_at <= :until",
    "profile": "r.profile = :profile",
}
_STEPS = typed_text(
    """SELECT s.id, a.id, a.run_id, a.level, a.status, a.confirmed_by, a.change_pct, r.commit
    FROM series s JOIN alert a ON a.benchmark_id = s.benchmark_id AND a.metric_id = s.metric_id
        AND a.branch_id = s.branch_id AND a.testbed_id = s.testbed_id
    JOIN run r ON r.id = a.run_id
    WHERE s.id = ANY(CAST(:ids AS int[])) ORDER BY a.opened_at"""
)
_CHANGES = typed_text(
    """SELECT c.series_id, c.id, c.run_id, c.note, c.created_by, c.created_at
    FROM series_restart c WHERE c.series_id = ANY(CAST(:ids AS int[])) ORDER BY c.run_id"""
)


@functools.cache
def _ranged(template: str, given: frozenset[str]) -> TextClause:
    parts = ["m.series_id = ANY(CAST(:ids AS int[]))", "r.accepted"]
    parts += [_BOUNDS[k] for k in sorted(given)]
    return typed_text(template.format(range=" AND ".join(parts)))


@dataclass(frozen=True, kw_only=True)
class BatchQuery:
    """What the page asked for; no testbed and no profile: the newest view's."""

    system: str
    branch: str = "main"
    testbed: str | None = None
    profile: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    max_points: int = 200
    limit: int = 500


@dataclass(frozen=True, kw_only=True)
class BatchAnswer:
    """The serialised batch (None when the caller's ETag still holds) and its ETag."""

    body: bytes | None
    etag: str


def _known_system(session: Session, system: str) -> None:
    found = session.execute(text("SELECT 1 FROM system WHERE slug = :s"), {"s": system}).first()
    if found is None:
        raise NotFound(f"no system {system!r}: check the slug (GET /api/v1/systems lists them)")


def read_batch(
    *, session: Session, query: BatchQuery, if_none_match: str | None = None
) -> BatchAnswer:
    """Every series of the page's view, worst first, with their points as columns."""
    _known_system(session, query.system)
    views = session.execute(_VIEWS, {"system": query.system, "branch": query.branch}).all()
    testbed, profile = query.testbed, query.profile
    if testbed is None and profile is None and views:
        testbed, profile = views[0][0], views[0][1]
    elif testbed is None and views:
        testbed = next((v[0] for v in views if v[1] == profile), views[0][0])
    params = {"system": query.system, "branch": query.branch, "testbed": testbed}
    series = session.execute(_SERIES, params).all() if testbed else []
    ids = [s[0] for s in series]
    given: dict[str, Any] = {"since": query.since, "until": query.until, "profile": profile}
    bounds: dict[str, Any] = {"ids": ids, **{k: v for k, v in given.items() if v is not None}}
    keys = frozenset(bounds) - {"ids"}
    stamps = chart_cache.stamps_of(
        session.execute(_ranged(chart_cache.STAMPS, keys), bounds).all() if ids else []
    )
    view_ids = session.execute(_VIEW_IDS, params).first() if ids else None
    env = (
        environment.marks(session=session, ids=view_ids, since=query.since, until=query.until)
        if view_ids
        else []
    )
    marks = (
        session.execute(_STEPS, {"ids": ids}).all() if ids else [],
        session.execute(_CHANGES, {"ids": ids}).all() if ids else [],
    )
    found = culprits.of_alerts(session=session, alert_ids=[m[1] for m in marks[0]])
    named = {a: c.model_dump() for a, c in found.items()}
    stamp = f"{query}:{testbed}:{profile}:{[tuple(v) for v in views]}:{sorted(stamps.items())}:"
    stamp += f"{[tuple(s) for s in series]}:{[(m[0], m[1], m[4]) for m in marks[0]]}"
    stamp += f":{[(c[0], c[1]) for c in marks[1]]}:{[e['run_id'] for e in env]}:{named}"
    etag = '"b' + hashlib.blake2b(stamp.encode(), digest_size=12).hexdigest() + '"'
    if etag_matches(if_none_match, etag):
        return BatchAnswer(body=None, etag=etag)
    # Only the all-time view is kept: a window's bounds (the UI's "last 30 days") move.
    kept = None if query.since or query.until else chart_cache.view_key(profile, query.max_points)
    picked = chart_cache.picked(
        session=session,
        statement=_ranged(chart_cache.POINTS, keys),
        bounds=bounds,
        max_points=query.max_points,
        stamps=stamps,
        view=kept,
    )
    runs, columns = chart_cache.runs_and_columns(session, picked)
    body = batch_shape.assemble(
        system=query.system,
        branch=query.branch,
        limit=query.limit,
        testbed=testbed,
        profile=profile,
        views=views,
        series=series,
        picked=picked,
        columns=columns,
        runs=runs,
        steps=marks[0],
        changes=marks[1],
        environment_changes=env,
        culprits=named,
    )
    return BatchAnswer(body=body, etag=etag)


def refresh_kept(*, session: Session, system: str, branch: str, testbed: str) -> int:
    """Read every kept view of a testbed's page again (series/refresh.py), so the series whose
    stamp moved are decimated and kept now rather than on the next page read; returns how many
    views were read."""
    params = {"system": system, "branch": branch, "testbed": testbed}
    keys = session.scalars(_KEPT_VIEWS, params).all()
    for key in keys:
        try:
            profile, max_points = orjson.loads(key)
        except (orjson.JSONDecodeError, ValueError):  # not a key this code writes
            continue
        page = BatchQuery(
            system=system, branch=branch, testbed=testbed, profile=profile, max_points=max_points
        )
        read_batch(session=session, query=page)
    return len(keys)
