"""The series batch's wire form from its rows: runs shared by index, points as columns, the
series ordered worst first (regressed, suspected, changed, then by benchmark and metric)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from benchdash.regression.engine import Level
from benchdash.regression.model import Stage
from benchdash.series.schemas import SeriesState

COLUMNS = (
    "run", "value", "min", "max", "stddev", "n", "level", "stage", "baseline", "change_pct",
    "p_value",
)  # fmt: skip
_EMPTY = orjson.Fragment(orjson.dumps({c: [] for c in COLUMNS}))
_CHANGED = (Level.WARN, Level.FAIL, Level.IMPROVED)
_ORDER = {state: i for i, state in enumerate(SeriesState)}
_STEP_FIELDS = ("alert_id", "run_id", "level", "status", "confirmed_by", "change_pct", "commit")
_CHANGE_FIELDS = ("id", "run_id", "note", "created_by", "created_at")


def _state(alerted: bool, level: str | None, stage: str | None) -> SeriesState:
    if alerted:
        return SeriesState.REGRESSED
    if stage == Stage.SUSPECTED:
        return SeriesState.SUSPECTED
    if level in _CHANGED:
        return SeriesState.CHANGED
    return SeriesState.STEADY


def assemble(
    *,
    system: str,
    branch: str,
    limit: int,
    testbed: str | None,
    profile: str | None,
    views: Sequence[Any],
    series: Sequence[Any],
    picked: dict[int, Any],
    columns: dict[int, orjson.Fragment],
    runs: orjson.Fragment,
    steps: Sequence[Any],
    changes: Sequence[Any],
    environment_changes: Sequence[Any] = (),
    culprits: dict[int, Any] | None = None,
) -> bytes:
    """The JSON body of `SeriesBatch`: `picked` holds each series' chart_cache.Picked,
    `columns` its points as JSON columns and `runs` the run table they index (both built by
    PostgreSQL as text)."""
    marks: dict[int, dict[str, list[dict[str, Any]]]] = {}
    for sid, *step in steps:
        marks.setdefault(sid, {"steps": [], "changes": []})["steps"].append(
            dict(zip(_STEP_FIELDS, step, strict=True))
            | {"first_bad_commit": (culprits or {}).get(step[0])}
        )
    for sid, *change in changes:
        marks.setdefault(sid, {"steps": [], "changes": []})["changes"].append(
            dict(zip(_CHANGE_FIELDS, change, strict=True))
        )
    out = []
    for sid, bench, bench_id, params_key, parameters, metric, alerted in series:
        p = picked.get(sid)
        total, count = (p.total, p.picked) if p else (0, 0)
        level, stage = (p.level, p.stage) if p else (None, None)
        cols = columns.get(sid, _EMPTY)
        out.append(
            {
                "benchmark": bench,
                "benchmark_id": bench_id,
                "params_key": params_key,
                "parameters": parameters,
                "metric": metric,
                "state": _state(alerted, level, stage),
                "total": total,
                "downsampled": total > count,
                "points": cols,
                **marks.get(sid, {"steps": [], "changes": []}),
            }
        )
    out.sort(key=lambda s: (_ORDER[s["state"]], s["benchmark"], s["params_key"], s["metric"]))
    body = {
        "system": system,
        "branch": branch,
        "testbed": testbed,
        "profile": profile,
        "views": [
            {"testbed": v[0], "profile": v[1], "runs": v[2], "last_at": v[3], "series": v[4]}
            for v in views
        ],
        "runs": runs,
        "series": out[:limit],
        "truncated": len(out) > limit,
        "environment_changes": list(environment_changes),
    }
    return orjson.dumps(body)
