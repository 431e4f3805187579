"""Series reads: an index range scan on (series_id, started_at), rows as tuples, one JSON pass.

Over `max_points`, MinMaxLTTB (tsdownsample) picks the points to draw and every warn/fail
point is added back. The answer carries an ETag computed from a cheap aggregate, so an
unchanged series costs one small query and a 304.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

import numpy as np
import orjson
from sqlalchemy import TextClause, text
from sqlalchemy.orm import Session
from tsdownsample import MinMaxLTTBDownsampler

from benchdash.alerts import changes as alert_changes
from benchdash.alerts import service as alert_service
from benchdash.bisect import culprits
from benchdash.kit.arrays import typed_text
from benchdash.kit.caching import etag_matches
from benchdash.kit.errors import InvalidInput, NotFound
from benchdash.regression.model import Stage
from benchdash.runs import environment

KEEP_LEVELS = ("warn", "fail")
POINT_FIELDS = (
    "run_id", "commit", "t", "value", "min", "max", "stddev", "n",
    "level", "stage", "baseline", "change_pct", "p_value",
)  # fmt: skip
# The range condition holds only the bounds the caller gave: with "CAST(:since AS timestamptz)
# IS NULL OR …" the generic plan PostgreSQL switches to once psycopg prepares the statement
# cannot bound the index scan, and every read scanned the whole series (14× slower).
_BOUNDS = {
    "since": "m.started_at >= :since",
    "until": "m.started_at <= :until",
    "profile": "r.profile = :profile",
}
# Stages change after a point is stored (a step confirmed, a re-run dismissing it), so they are
# part of the stamp, as are the series' steps and accepted changes.
# Both read the measurement's copies of its verdict's level and stage: joining the verdicts of
# a long series made PostgreSQL scan the whole verdict table.
# Each point's run is looked up by its key (OFFSET 0 keeps the subquery a lookup): joined,
# PostgreSQL hashed every run of the system for a 1,000-point read, a cost that grew with
# the runs stored, not with the points read.
_POINT_RUN = """FROM measurement m CROSS JOIN LATERAL (
        SELECT r.commit, r.accepted, r.profile FROM run r WHERE r.id = m.run_id OFFSET 0) r"""


def stamp_columns(alias: str) -> str:
    """What a series' ETag is made of, over rows `alias`: how many, the newest run, and how many
    confirmed and dismissed points (a series read, its one-pass read and the page batch)."""
    return (
        f"count(*), max({alias}.run_id), "
        f"count(*) FILTER (WHERE {alias}.stage = '{Stage.CONFIRMED}'), "
        f"count(*) FILTER (WHERE {alias}.stage = '{Stage.DISMISSED}')"
    )


_STAMP = f"SELECT {stamp_columns('m')} {_POINT_RUN} WHERE {{range}}"
_LIGHT = f"""SELECT m.id, CAST(extract(epoch FROM m.started_at) AS float8), m.value, m.level
    {_POINT_RUN} WHERE {{range}} ORDER BY m.started_at, m.run_id"""
# Level and stage are the measurement's copies; so are baseline, change and p-value on rows
# stored since migration 0019 (`chart_copied`): only older rows look their verdict up.
CHART_FIELDS = ", ".join(
    f"CASE WHEN m.chart_copied THEN m.{c} ELSE v.{c} END AS {c}"
    for c in ("baseline_value", "change_pct", "p_value")
)
# OFFSET 0 keeps the subquery whole, so `NOT m.chart_copied` gates it (a one-time filter: the
# verdict's index is not entered); pulled up into a join, it was only a filter after the lookup.
OLD_VERDICT = """LEFT JOIN LATERAL (SELECT v.baseline_value, v.change_pct, v.p_value FROM verdict v
        WHERE NOT m.chart_copied AND v.measurement_id = m.id OFFSET 0) v ON true"""
_DETAIL = f"""SELECT m.run_id, r.commit, m.started_at, m.value, m.min_value, m.max_value,
    m.stddev, m.n, m.level, m.stage, {CHART_FIELDS}
    {_POINT_RUN} {OLD_VERDICT}"""
_ALL = f"{_DETAIL} WHERE {{range}} ORDER BY m.started_at, m.run_id"


# The JSON answer's points, built by PostgreSQL as one text that goes into the answer as it
# is (Python never walks the points): one object a point (the wire form of POINT_FIELDS), or
# with form=columns one array a field (`t` in ms since the epoch).
_COLUMNS = ("run_id", "commit", "started_at", "value", "min_value", "max_value", "stddev", "n",
            "level", "stage", "baseline_value", "change_pct", "p_value")  # fmt: skip
_ORDER = "ORDER BY q.started_at, q.run_id"
_OBJECT = ", ".join(f"'{f}', q.{c}" for f, c in zip(POINT_FIELDS, _COLUMNS, strict=True))
_MS = "CAST(extract(epoch FROM q.started_at) * 1000 AS float8)"
_ARRAYS = ", ".join(
    f"'{f}', coalesce(json_agg({_MS if f == 't' else 'q.' + c} {_ORDER}), '[]')"
    for f, c in zip(POINT_FIELDS, _COLUMNS, strict=True)
)
_AS_JSON = {
    "points": f"""SELECT count(*), CAST(coalesce(json_agg(json_build_object({_OBJECT}) {_ORDER}),
        '[]') AS text) FROM ({{points}}) q""",
    "columns": f"""SELECT count(*), CAST(json_build_object({_ARRAYS}) AS text)
        FROM ({{points}}) q""",
}


@functools.cache
def _ranged(template: str, given: frozenset[str]) -> TextClause:
    """`template` with the series' range condition for the bounds in `given`."""
    parts = ["m.series_id = :series", "r.accepted", *(_BOUNDS[k] for k in sorted(given))]
    return text(template.format(range=" AND ".join(parts)))


# The picked points' time span bounds the partitions visited (to_timestamp: pruned at start).
_SOME = typed_text(
    f"""{_DETAIL} WHERE m.id = ANY(CAST(:ids AS int[]))
    AND m.started_at BETWEEN to_timestamp(:lo) AND to_timestamp(:hi)
    ORDER BY m.started_at, m.run_id"""
)
# A read that needs no stamp first (no If-None-Match) counts, stamps and writes its points in
# one pass when the range holds at most `max_points` rows (read at most one more to know).
_STAMPED = {
    form: q.replace("SELECT count(*),", f"SELECT {stamp_columns('q')},", 1).replace(
        "{points}", _ALL + " LIMIT :room"
    )
    for form, q in _AS_JSON.items()
}
_NO_COLUMNS = orjson.dumps({field: [] for field in POINT_FIELDS})
_SOME_JSON = {form: typed_text(q.replace("{points}", _SOME.text)) for form, q in _AS_JSON.items()}
_SERIES = text(
    """SELECT s.id, t.name, b.id, b.name, b.parameters, b.params_key, mt.name, mt.unit,
        mt.direction, mt.warn_threshold, mt.fail_threshold,
        EXISTS (SELECT 1 FROM measurement m WHERE m.series_id = s.id) AS measured,
        sy.id, br.id, s.testbed_id
    FROM system sy
    JOIN benchmark b ON b.system_id = sy.id
    JOIN metric mt ON mt.system_id = sy.id AND mt.name = :metric
    JOIN branch br ON br.system_id = sy.id AND br.name = :branch
    LEFT JOIN series s ON s.benchmark_id = b.id AND s.metric_id = mt.id AND s.branch_id = br.id
    LEFT JOIN testbed t ON t.id = s.testbed_id
    WHERE sy.slug = :system
      AND (CAST(:bench_id AS int) IS NULL OR b.id = :bench_id)
      AND (CAST(:bench_id AS int) IS NOT NULL OR b.name = :benchmark)
      AND (CAST(:params AS text) IS NULL OR b.params_key = :params)"""
)


# The newest point of each of several testbeds' series: a probe of every month, so only asked
# when a series has points on more than one testbed (an EXISTS stops at the first month).
_NEWEST = typed_text(
    """SELECT s, (SELECT max(m.started_at) FROM measurement m WHERE m.series_id = s)
    FROM unnest(CAST(:ids AS int[])) AS s"""
)


@dataclass(frozen=True)
class SeriesQuery:
    """What the caller asked for."""

    system: str
    benchmark: str
    metric: str
    branch: str = "main"
    testbed: str | None = None
    params: str | None = None
    benchmark_id: int | None = None
    since: datetime | None = None
    until: datetime | None = None
    profile: str | None = None
    max_points: int = 1000
    form: str = "points"  # the JSON answer's: "points" (objects) or "columns" (arrays)


@dataclass(frozen=True)
class SeriesAnswer:
    """A serialised series (or None when the caller's ETag still holds) and its ETag."""

    body: bytes | None
    etag: str


@dataclass(frozen=True)
class SeriesData:
    """A series as a dict shaped like `SeriesRead` (or None when the ETag holds) and its ETag."""

    data: dict[str, Any] | None
    etag: str


def downsample_indices(
    t: np.ndarray, y: np.ndarray, keep: np.ndarray, max_points: int
) -> np.ndarray:
    """MinMaxLTTB indices (tsdownsample) united with the indices in `keep`, sorted."""
    if len(t) <= max_points:
        return np.arange(len(t))
    picked = MinMaxLTTBDownsampler().downsample(  # type: ignore[no-untyped-call]
        t, y, n_out=max_points
    )
    return np.union1d(picked, keep).astype(np.int64)


def _locate(session: Session, q: SeriesQuery) -> tuple[Any, list[str]]:
    """The series row of the chosen testbed, and every testbed the series has."""
    rows = session.execute(
        _SERIES,
        {
            "system": q.system,
            "metric": q.metric,
            "branch": q.branch,
            "benchmark": q.benchmark,
            "bench_id": q.benchmark_id,
            "params": q.params,
        },
    ).all()
    if not rows:
        raise NotFound(
            f"no series {q.system}/{q.benchmark}/{q.metric} on branch {q.branch!r}: check the "
            "system, benchmark, metric and branch names"
        )
    if len({r[2] for r in rows}) > 1:
        variants = "; ".join(sorted({r[5] for r in rows}))
        raise InvalidInput(
            f"benchmark {q.benchmark!r} has several parameter sets, pick one with params: "
            f"{variants}"
        )
    measured = [r for r in rows if r[0] is not None and r[11]]
    testbeds = sorted(r[1] for r in measured)
    if q.testbed is not None:
        chosen = [r for r in measured if r[1] == q.testbed]
        if not chosen:
            raise NotFound(f"no points of this series on testbed {q.testbed!r}")
        return chosen[0], testbeds
    if len(measured) > 1:
        found = session.execute(_NEWEST, {"ids": [r[0] for r in measured]}).all()
        newest: dict[int, datetime] = {sid: at for sid, at in found}
        return max(measured, key=lambda r: newest[r[0]]), testbeds
    if measured:
        return measured[0], testbeds
    return rows[0], testbeds


def read(*, session: Session, query: SeriesQuery, if_none_match: str | None = None) -> SeriesAnswer:
    """The points of one series in time order, downsampled to about `max_points`, as JSON."""
    found = read_data(session=session, query=query, if_none_match=if_none_match, as_json=True)
    body = None if found.data is None else orjson.dumps(found.data)
    return SeriesAnswer(body, found.etag)


def _fetch(
    session: Session, queries: tuple[TextClause, TextClause], params: dict[str, Any], as_json: bool
) -> tuple[int, Any]:
    """How many points, and the points: the JSON text PostgreSQL wrote (`as_json`, with the
    second query), else one dict a row of the first."""
    if as_json:
        count, text_ = session.execute(queries[1], params).one()
        return count, text_
    rows = session.execute(queries[0], params).all()
    return len(rows), [dict(zip(POINT_FIELDS, p, strict=True)) for p in rows]


def read_data(
    *,
    session: Session,
    query: SeriesQuery,
    if_none_match: str | None = None,
    representation: str = "",
    as_json: bool = False,
) -> SeriesData:
    """`read`'s series before serialising; `representation` (e.g. "svg") joins the ETag's stamp,
    so each rendering of the same data has an ETag of its own. With `as_json` its points are one
    JSON text (an `orjson.Fragment`), as PostgreSQL wrote them."""
    row, testbeds = _locate(session, query)
    series_id = row[0]
    given = {"since": query.since, "until": query.until, "profile": query.profile}
    bounds = {"series": series_id, **{k: v for k, v in given.items() if v is not None}}
    keys = frozenset(bounds) - {"series"}
    whole = None  # (count, last run, confirmed, dismissed, points JSON) of a short range
    if series_id and as_json and if_none_match is None:
        first = session.execute(
            _ranged(_STAMPED[query.form], keys), {**bounds, "room": query.max_points + 1}
        ).one()
        whole = first if first[0] <= query.max_points else None
    if whole:
        total, last_id, confirmed, dismissed = whole[:4]
    elif series_id:
        total, last_id, confirmed, dismissed = session.execute(_ranged(_STAMP, keys), bounds).one()
    else:
        total, last_id, confirmed, dismissed = 0, None, 0, 0
    steps = alert_service.steps(session=session, series_id=series_id) if series_id else []
    steps = culprits.on_steps(session=session, steps=steps)
    changes = alert_changes.of_series(session=session, series_id=series_id) if series_id else []
    marked = (
        [(s["alert_id"], s["status"], s["first_bad_commit"]) for s in steps],
        [(c["id"], c["note"]) for c in changes],
    )
    stamp = (
        f"{series_id}:{total}:{last_id}:{confirmed}:{dismissed}:{row[9]}:{row[10]}:"
        f"{query.max_points}:{query}:{marked}" + (f":{representation}" if representation else "")
    )
    etag = '"' + hashlib.blake2b(stamp.encode(), digest_size=12).hexdigest() + '"'
    if etag_matches(if_none_match, etag):
        return SeriesData(None, etag)
    count, points = 0, cast(Any, None)  # JSON text (as_json) or dicts
    if whole:
        count, points = total, whole[4]
    elif series_id and total > query.max_points:
        light = session.execute(_ranged(_LIGHT, keys), bounds).all()
        ids, t, y, levels = zip(*light, strict=True)
        keep = np.array([i for i, lv in enumerate(levels) if lv in KEEP_LEVELS], dtype=np.int64)
        picked = downsample_indices(
            np.asarray(t, dtype=np.float64),
            np.asarray(y, dtype=np.float64),
            keep,
            query.max_points,
        )
        span = {"lo": t[picked[0]] - 1, "hi": t[picked[-1]] + 1}  # picked is sorted by time
        some = {"ids": [ids[i] for i in picked], **span}
        count, points = _fetch(session, (_SOME, _SOME_JSON[query.form]), some, as_json)
    elif series_id:
        wrapped = _AS_JSON[query.form].replace("{points}", _ALL)
        pair = (_ranged(_ALL, keys), _ranged(wrapped, keys))
        count, points = _fetch(session, pair, bounds, as_json)
    columns = as_json and query.form == "columns"
    body = {
        "system": query.system,
        "benchmark": row[3],
        "benchmark_id": row[2],
        "parameters": row[4],
        "params_key": row[5],
        "metric": row[6],
        "unit": row[7],
        "direction": row[8],
        "warn_threshold": row[9],
        "fail_threshold": row[10],
        "branch": query.branch,
        "testbed": row[1] if series_id else None,
        "testbeds": testbeds,
        "total": total,
        "downsampled": total > count,
        "points": [] if columns else orjson.Fragment(points or "[]") if as_json else points or [],
        "columns": orjson.Fragment(points or _NO_COLUMNS) if columns else None,
        "steps": steps,
        "changes": changes,
        "environment_changes": environment.marks(
            session=session, ids=row[12:15], since=query.since, until=query.until
        )
        if series_id
        else [],
    }
    return SeriesData(body, etag)
