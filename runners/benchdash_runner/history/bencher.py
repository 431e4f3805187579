"""Bencher's JSON: the answer of its perf query (`GET /v0/projects/{project}/perf`), which is how
Bencher gives a project's history out, or a list of such answers (several pages).

`{"results": [{"branch": {name}, "testbed": {name}, "benchmark": {name}, "measure": {slug,
units?}, "metrics": [{"report": uuid, "iteration": i, "start_time", "end_time", "version":
{"hash"?}, "metric": {"value", "lower_value"?, "upper_value"?}}]}]}`. One run a Bencher report:
its branch, testbed, commit (`version.hash`) and times; each benchmark's measure a metric, named
and directed as `--format bmf` does; the values of a report's several iterations are its samples.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchdash_runner.adapters import bmf
from benchdash_runner.adapters._base import direction_for_unit, load_json, metric_name_for_unit
from benchdash_runner.adapters._base import number as checked
from benchdash_runner.document import metric
from benchdash_runner.history.entries import Entry, HistoryError, Options, document, utc_key


def sniff(data: Any) -> bool:
    """A perf answer (or a list of them): results holding branch, testbed, measure, metrics."""
    pages = data if isinstance(data, list) else [data]
    return bool(pages) and all(
        isinstance(p, dict)
        and isinstance(p.get("results"), list)
        and all(isinstance(r, dict) and {"benchmark", "measure", "metrics"} <= set(r)
                for r in p["results"])
        for p in pages
    )  # fmt: skip


def _name(obj: Any, where: str, path: Path, *keys: str) -> str:
    for key in keys:
        if isinstance(obj, dict) and isinstance(obj.get(key), str) and obj[key]:
            return str(obj[key])
    raise HistoryError(path, f"{where}: expected an object with {' or '.join(keys)}")


def read(path: Path, opts: Options) -> list[Entry]:
    """One entry a Bencher report, ordered by its start time."""
    if opts.system is None:
        raise HistoryError(path, "a Bencher export names no system: pass --system")
    data = load_json(path)
    if not sniff(data):
        raise HistoryError(path, "expected Bencher's perf JSON: {'results': [{branch, testbed, "
                           "benchmark, measure, metrics: [...]}]}")  # fmt: skip
    reports: dict[str, dict[str, Any]] = {}
    pages = data if isinstance(data, list) else [data]
    for p, page in enumerate(pages):
        for i, res in enumerate(page["results"]):
            where = f"{path}: results[{i}]" if len(pages) == 1 else f"{path}: [{p}].results[{i}]"
            _add(path, where, res, reports)
    out = []
    for position, (report, r) in enumerate(reports.items()):
        results = []
        for (bench, (name, unit, direction)), values in r["values"].items():
            m = metric(name, unit, direction, samples=values) if len(values) > 1 else \
                metric(name, unit, direction, value=values[0])  # fmt: skip
            results.append({"benchmark": bench, "parameters": {}, "metrics": [m]})
        merged: dict[str, dict[str, Any]] = {}
        for res in results:  # one result a benchmark, its measures as metrics
            merged.setdefault(res["benchmark"], {**res, "metrics": []})["metrics"] += res["metrics"]
        meta = {"external_id": f"bencher-{report}", **r["meta"]}
        doc = document(opts=opts, system=opts.system, run=meta, results=list(merged.values()),
                       configuration={"imported_from": "bencher", "report": report})  # fmt: skip
        out.append(Entry(r["where"], doc, (utc_key(meta["started_at"]), position)))
    return out


def _add(path: Path, where: str, res: dict[str, Any], reports: dict[str, dict[str, Any]]) -> None:
    bench = _name(res.get("benchmark"), f"{where}.benchmark", path, "name", "slug")
    slug = _name(res.get("measure"), f"{where}.measure", path, "slug", "name")
    units = res["measure"].get("units") if isinstance(res.get("measure"), dict) else None
    custom = (
        metric_name_for_unit(slug),
        str(units or slug),
        direction_for_unit(str(units or slug)),
    )
    kind = bmf._BUILT_IN.get(slug, custom)
    branch = _name(res.get("branch"), f"{where}.branch", path, "name", "slug")
    testbed = _name(res.get("testbed"), f"{where}.testbed", path, "name", "slug")
    if not isinstance(res["metrics"], list):
        raise HistoryError(path, f"{where}.metrics: expected a list")
    for k, m in enumerate(res["metrics"]):
        at = f"{where}.metrics[{k}]"
        if not isinstance(m, dict) or not isinstance(m.get("report"), str):
            raise HistoryError(path, f"{at}: expected an object with its 'report' id")
        value = checked(path, (m.get("metric") or {}).get("value"), f"{at}.metric.value")
        start = m.get("start_time")
        if not isinstance(start, str):
            raise HistoryError(path, f"{at}.start_time: expected an ISO 8601 time")
        version: dict[str, Any] = m["version"] if isinstance(m.get("version"), dict) else {}
        r = reports.setdefault(m["report"], {"where": at, "values": {}, "meta": {
            "branch": branch, "testbed": testbed, "commit": version.get("hash"),
            "started_at": start, "finished_at": m.get("end_time") or start}})  # fmt: skip
        r["values"].setdefault((bench, kind), []).append(value)
