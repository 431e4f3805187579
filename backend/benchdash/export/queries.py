"""The export's JSON lines (format `benchdash-export/1`), read page by page in one snapshot.

Lines, in this order: one `export` header (format, time, system, how many runs); one `run` line
per accepted, completed run with measurements, in ingest order (run id), holding the
`benchdash/v1` document that re-imports it (`document`) and its verdicts (`verdicts`,
informational); every accepted change (`change`, the series' annotation); every alert
(`alert`, informational); and an `end` line with the counts, so a reader can tell a cut stream.

Constant memory: runs are read by keyset pages of PAGE (their measurements in one statement a
page, pruned to the page's months), alerts and changes likewise; only one page is held.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.db import utcnow
from benchdash.kit.arrays import typed_text
from benchdash.runs.states import RunStatus, RunTrigger

FORMAT = "benchdash-export/1"
PAGE = 200
# A run stored without an external id (a runner's, the demo's) is exported under this one, so
# importing the export twice stores it once.
_EXTERNAL = "coalesce(r.external_id, 'benchdash-run-' || r.id)"
_SYSTEM = {True: "AND sy.slug = :system", False: ""}
_KEPT = f"""r.accepted AND r.status = '{RunStatus.COMPLETED}'
    AND r.trigger <> '{RunTrigger.BISECT}'
    AND EXISTS (SELECT 1 FROM measurement m
        WHERE m.run_id = r.id AND m.started_at = r.started_at)"""
_COUNT = "SELECT count(*) FROM run r JOIN system sy ON sy.id = r.system_id WHERE {kept} {system}"
_RUNS = f"""SELECT r.id, sy.slug, {_EXTERNAL}, r.commit, br.name, br.base_branch, r.version,
        r.trigger, r.profile, r.started_at, r.finished_at, t.name, r.environment,
        r.configuration, r.created_at
    FROM run r JOIN system sy ON sy.id = r.system_id JOIN branch br ON br.id = r.branch_id
    LEFT JOIN testbed t ON t.id = r.testbed_id
    WHERE r.id > :after AND {{kept}} {{system}} ORDER BY r.id LIMIT :page"""
_MEASUREMENTS = typed_text(
    """SELECT m.run_id, b.name, b.parameters, b.params_key, mt.name, mt.unit, mt.direction,
        m.value, m.samples, v.level, v.stage, v.baseline_value, v.change_pct, v.p_value
    FROM measurement m JOIN benchmark b ON b.id = m.benchmark_id
    JOIN metric mt ON mt.id = m.metric_id LEFT JOIN verdict v ON v.measurement_id = m.id
    WHERE m.run_id = ANY(CAST(:ids AS int[])) AND m.started_at BETWEEN :lo AND :hi
    ORDER BY m.run_id, m.id"""
)
_SERIES_KEY = """sy.slug AS system, b.name AS benchmark, b.parameters, mt.name AS metric,
    br.name AS branch, t.name AS testbed"""
_SERIES_JOINS = """JOIN system sy ON sy.id = {a}.system_id
    JOIN benchmark b ON b.id = {a}.benchmark_id
    JOIN metric mt ON mt.id = {a}.metric_id JOIN branch br ON br.id = {a}.branch_id
    JOIN testbed t ON t.id = {a}.testbed_id"""
_CHANGES = f"""SELECT c.id, {_SERIES_KEY}, {_EXTERNAL} AS run_external_id, r.commit, c.note,
        c.created_by, c.created_at
    FROM series_restart c JOIN series s ON s.id = c.series_id JOIN run r ON r.id = c.run_id
    {_SERIES_JOINS.format(a="s")}
    WHERE c.id > :after {{system}} ORDER BY c.id LIMIT :page"""
_ALERTS = f"""SELECT a.id, {_SERIES_KEY}, a.kind AS alert_kind, a.level, a.status, a.change_pct,
        a.baseline_value, a.p_value, a.confirmed_by, a.opened_at, a.acknowledged_at,
        a.acknowledged_by, a.resolved_at, {_EXTERNAL} AS run_external_id, r.commit,
        coalesce(g.external_id, 'benchdash-run-' || g.id) AS last_good_external_id,
        g.commit AS last_good_commit
    FROM alert a JOIN run r ON r.id = a.run_id LEFT JOIN run g ON g.id = a.last_good_run_id
    {_SERIES_JOINS.format(a="a")}
    WHERE a.id > :after {{system}} ORDER BY a.id LIMIT :page"""
_SNAPSHOT = text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")


def _line(obj: dict[str, Any]) -> bytes:
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS) + b"\n"


def stream(session: Session, system: str | None) -> Iterator[bytes]:
    """Every line of the export of `system` (None: every system), read in one snapshot."""
    session.execute(_SNAPSHOT)
    args: dict[str, Any] = {"system": system} if system else {}
    where = _SYSTEM[system is not None]
    total = session.execute(text(_COUNT.format(kept=_KEPT, system=where)), args).scalar_one()
    head = {"kind": "export", "format": FORMAT, "exported_at": utcnow(), "system": system}
    yield _line({**head, "runs": total})
    counts = {"runs": 0, "changes": 0, "alerts": 0}
    for line in _runs(session, where, args):
        counts["runs"] += 1
        yield _line(line)
    for kind, query in (("change", _CHANGES), ("alert", _ALERTS)):
        for row in _pages(session, text(query.format(system=where)), args):
            counts[kind + "s"] += 1
            yield _line({"kind": kind, **row})
    yield _line({"kind": "end", **counts})


def _pages(session: Session, query: Any, args: dict[str, Any]) -> Iterator[dict[str, Any]]:
    after = 0
    while True:
        rows = session.execute(query, {**args, "after": after, "page": PAGE}).mappings().all()
        for row in rows:
            yield dict(row)
        if len(rows) < PAGE:
            return
        after = rows[-1]["id"]


def _runs(session: Session, where: str, args: dict[str, Any]) -> Iterator[dict[str, Any]]:
    query = text(_RUNS.format(kept=_KEPT, system=where))
    after = 0
    while True:
        runs = session.execute(query, {**args, "after": after, "page": PAGE}).all()
        if not runs:
            return
        starts = [r[9] for r in runs]
        bounds = {"ids": [r[0] for r in runs], "lo": min(starts), "hi": max(starts)}
        by_run: dict[int, list[Any]] = {}
        for m in session.execute(_MEASUREMENTS, bounds):
            by_run.setdefault(m[0], []).append(m)
        for run in runs:
            yield _run_line(run, by_run.get(run[0], []))
        if len(runs) < PAGE:
            return
        after = runs[-1][0]


def _iso(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat()


def _run_line(run: Any, measurements: list[Any]) -> dict[str, Any]:
    """One run's line: the document that re-imports it and its verdicts."""
    (run_id, system, external_id, commit, branch, base_branch, version, trigger, profile,
     started_at, finished_at, testbed, environment, configuration, created_at) = run  # fmt: skip
    meta = {
        "external_id": external_id,
        "commit": commit,
        "branch": branch,
        "base_branch": base_branch,
        "version": version,
        "trigger": trigger,
        "profile": profile,
        "started_at": _iso(started_at),
        "finished_at": _iso(finished_at),
        "testbed": testbed,
    }
    results: dict[tuple[str, str], dict[str, Any]] = {}
    verdicts = []
    for m in measurements:
        (_, bench, params, params_key, metric, unit, direction, value, samples,
         level, stage, baseline, change_pct, p_value) = m  # fmt: skip
        result = results.setdefault(
            (bench, params_key), {"benchmark": bench, "parameters": params, "metrics": []}
        )
        entry: dict[str, Any] = {"name": metric, "unit": unit, "direction": direction}
        entry["value"] = value
        if samples:
            entry["samples"] = samples
        result["metrics"].append(entry)
        verdicts.append(
            {"benchmark": bench, "params_key": params_key, "metric": metric, "level": level,
             "stage": stage, "baseline": baseline, "change_pct": change_pct, "p_value": p_value}
        )  # fmt: skip
    document = {
        "schema": "benchdash/v1",
        "system": system,
        "run": {k: v for k, v in meta.items() if v is not None},
        "environment": environment or {},
        "configuration": configuration or {},
        "results": list(results.values()),
    }
    return {
        "kind": "run",
        "id": run_id,
        "created_at": _iso(created_at),
        "document": document,
        "verdicts": verdicts,
    }
