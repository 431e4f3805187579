"""A system page's points: each series decimated in SQL, and kept between reads.

Over `max_points`, a series keeps the lowest and highest point of each of `max_points / 2`
equal-count buckets (min-max decimation: spikes stay visible), every warn/fail point and its
newest point. For long series that is the page's cost (every stored row ranked and bucketed),
while a series' points change only when a run lands or one of its points' stages moves. So
the all-time view of each series (no `from`/`to`) is kept in `series_chart` with the stamp it
was read at (the same count, newest run and stage counts the ETag is made of); a page reads the
rows whose stamp still holds and decimates only the other series. A replica (read only) reads
the rows the primary kept and stores none.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import TextClause, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from benchdash.kit.arrays import typed_text
from benchdash.series.service import CHART_FIELDS, KEEP_LEVELS, OLD_VERDICT, stamp_columns

log = logging.getLogger(__name__)

_KEEP = ",".join(f"'{level}'" for level in KEEP_LEVELS)
# One stamp a series: what its points depend on (the ETag is made of the same).
STAMPS = f"""SELECT m.series_id, {stamp_columns("m")}
    FROM measurement m JOIN run r ON r.id = m.run_id WHERE {{range}}
    GROUP BY m.series_id ORDER BY m.series_id"""
# One pass over each series' rows in time order (the index's order): rank, count, and each
# bucket's extremes as a window over the bucket (the minimum of [value, rank] arrays: the
# lowest value, the oldest on a tie), then the kept rows aggregated into one JSON object of
# columns a series. Rows carry every field they need, so no picked point is looked up again.
POINTS = f"""WITH p AS (
    SELECT m.series_id, m.run_id, m.value, m.min_value, m.max_value, m.stddev, m.n, m.level,
        m.stage, {CHART_FIELDS},
        row_number() OVER (PARTITION BY m.series_id ORDER BY m.started_at, m.run_id) AS rn,
        count(*) OVER (PARTITION BY m.series_id) AS total
    FROM measurement m JOIN run r ON r.id = m.run_id {OLD_VERDICT}
    WHERE {{range}}
), x AS (
    SELECT p.*, min(ARRAY[value, rn]) OVER g AS lo, max(ARRAY[value, -rn]) OVER g AS hi
    FROM p WINDOW g AS (PARTITION BY series_id,
        CASE WHEN total > :max THEN (rn - 1) * (CAST(:max AS int) / 2) / total END)
)
SELECT series_id, total, CAST(count(*) AS int),
    (array_agg(level ORDER BY rn DESC))[1], (array_agg(stage ORDER BY rn DESC))[1],
    CAST(json_agg(run_id ORDER BY rn) AS text),
    CAST(json_build_object(
        'value', array_agg(value ORDER BY rn), 'min', array_agg(min_value ORDER BY rn),
        'max', array_agg(max_value ORDER BY rn), 'stddev', array_agg(stddev ORDER BY rn),
        'n', array_agg(n ORDER BY rn), 'level', array_agg(level ORDER BY rn),
        'stage', array_agg(stage ORDER BY rn), 'baseline', array_agg(baseline_value ORDER BY rn),
        'change_pct', array_agg(change_pct ORDER BY rn),
        'p_value', array_agg(p_value ORDER BY rn)) AS text)
FROM x WHERE total <= :max OR rn = total OR level IN ({_KEEP}) OR rn = lo[2] OR rn = -hi[2]
GROUP BY series_id, total"""
_KEPT = typed_text(
    """SELECT series_id, stamp, total, picked, last_level, last_stage, run_ids, columns
    FROM series_chart WHERE series_id = ANY(CAST(:ids AS int[])) AND view = :view"""
)
_WRITABLE = text(
    "SELECT NOT pg_is_in_recovery() AND current_setting('transaction_read_only') = 'off'"
)
# In series order, so two pages storing at once lock rows in the same order.
_STORE = typed_text(
    """INSERT INTO series_chart AS c (series_id, view, stamp, total, picked, last_level,
        last_stage, run_ids, columns, refreshed_at)
    SELECT s, :view, st, t, p, lv, sg, r, c, now() FROM unnest(CAST(:ids AS int[]),
        CAST(:stamps AS text[]), CAST(:totals AS int[]), CAST(:picked AS int[]),
        CAST(:levels AS text[]), CAST(:stages AS text[]), CAST(:runs AS text[]),
        CAST(:columns AS text[])) AS u(s, st, t, p, lv, sg, r, c) ORDER BY s
    ON CONFLICT (series_id, view) DO UPDATE SET stamp = EXCLUDED.stamp,
        total = EXCLUDED.total, picked = EXCLUDED.picked, last_level = EXCLUDED.last_level,
        last_stage = EXCLUDED.last_stage, run_ids = EXCLUDED.run_ids,
        columns = EXCLUDED.columns, refreshed_at = EXCLUDED.refreshed_at"""
)
_RUNS = typed_text(
    """SELECT CAST(json_build_object('id', coalesce(array_agg(id ORDER BY id), '{}'),
        'commit', coalesce(array_agg(commit ORDER BY id), '{}'),
        't', coalesce(array_agg(extract(epoch FROM started_at) * 1000 ORDER BY id), '{}'))
        AS text) FROM run WHERE id = ANY(CAST(:ids AS int[]))"""
)


def view_key(profile: str | None, max_points: int) -> str:
    """The key of a kept view in `series_chart.view`: its profile and points per chart."""
    return orjson.dumps([profile, max_points]).decode()


@dataclass(frozen=True)
class Picked:
    """A series' points on the page: its columns as JSON text (without `run`), each point's run
    id (JSON), how many rows it has and how many were kept, and its newest level and stage."""

    total: int
    picked: int
    level: str | None
    stage: str | None
    run_ids: str
    columns: str


def stamps_of(rows: Sequence[Any]) -> dict[int, str]:
    """Each series' stamp from rows of STAMPS."""
    return {r[0]: f"{r[1]}:{r[2]}:{r[3]}:{r[4]}" for r in rows}


def _writable(session: Session) -> bool:
    return bool(session.execute(_WRITABLE).scalar_one())


def _store(session: Session, view: str, stamps: dict[int, str], new: dict[int, Picked]) -> None:
    ids = sorted(new)
    rows = [new[i] for i in ids]
    params = {
        "view": view,
        "ids": ids,
        "stamps": [stamps[i] for i in ids],
        "totals": [p.total for p in rows],
        "picked": [p.picked for p in rows],
        "levels": [p.level for p in rows],
        "stages": [p.stage for p in rows],
        "runs": [p.run_ids for p in rows],
        "columns": [p.columns for p in rows],
    }
    try:
        with session.begin_nested():  # a page that cannot keep its points still answers
            session.execute(_STORE, params)
    except DBAPIError as exc:
        log.warning("series points not kept: %s", exc.orig or exc)


def picked(
    *,
    session: Session,
    statement: TextClause,
    bounds: dict[str, Any],
    max_points: int,
    stamps: dict[int, str],
    view: str | None,
) -> dict[int, Picked]:
    """The page points of each series in `stamps`: kept ones whose stamp holds (with a `view`),
    the others decimated by `statement` (POINTS over their ids) and kept for next time."""
    found: dict[int, Picked] = {}
    if view is not None and stamps:
        for sid, stamp, *rest in session.execute(_KEPT, {"ids": list(stamps), "view": view}):
            if stamps.get(sid) == stamp:
                found[sid] = Picked(*rest)
    missing = [sid for sid in stamps if sid not in found]
    if not missing:
        return found
    session.execute(text("SET LOCAL work_mem = '64MB'"))  # the windows' sorts stay in memory
    rows = session.execute(statement, {**bounds, "ids": missing, "max": max_points}).all()
    new = {r[0]: Picked(*r[1:]) for r in rows}
    if view is not None and new and _writable(session):
        _store(session, view, stamps, new)
    return found | new


def runs_and_columns(
    session: Session, points: dict[int, Picked]
) -> tuple[orjson.Fragment, dict[int, orjson.Fragment]]:
    """The runs every series shares (JSON columns `id`, `commit`, `t`, by id) and each series'
    columns with `run` indexing them."""
    run_ids = {sid: orjson.loads(p.run_ids) for sid, p in points.items()}
    ids = sorted(set().union(*run_ids.values())) if run_ids else []
    table = session.execute(_RUNS, {"ids": ids}).scalar_one() if ids else None
    index = {run: i for i, run in enumerate(ids)}
    columns = {
        sid: orjson.Fragment(
            b'{"run":'
            + orjson.dumps([index[r] for r in run_ids[sid]])
            + b","
            + p.columns[1:].encode()
        )
        for sid, p in points.items()
    }
    empty = orjson.dumps({"id": [], "commit": [], "t": []})
    return orjson.Fragment(table or empty), columns
