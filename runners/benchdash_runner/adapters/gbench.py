"""`gbench`: Google Benchmark's `--benchmark_format=json` (or `--benchmark_out`) file.

Repetitions (`run_type: iteration`) of one `run_name` become samples. Aggregates (mean,
median, stddev, cv, BigO) are skipped so nothing is counted twice; only when the file holds
aggregates alone (`--benchmark_report_aggregates_only`) is the `mean` aggregate used as the
value. Times are converted to ns. `bytes_per_second`, `items_per_second` and user counters
become metrics of their own (user counters in unit `count`). With samples, the value is left
to the server (their median, as for every adapter but criterion).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchdash_runner.adapters._base import (
    HIGHER,
    LOWER,
    NS_PER,
    AdapterError,
    Result,
    direction_for_unit,
    load_json,
    metric_name_for_unit,
    number,
    scalar,
)
from benchdash_runner.document import metric

_NOT_COUNTERS = {
    "name",
    "family_index",
    "per_family_instance_index",
    "run_name",
    "run_type",
    "repetitions",
    "repetition_index",
    "threads",
    "iterations",
    "real_time",
    "cpu_time",
    "time_unit",
    "label",
    "error_occurred",
    "error_message",
    "aggregate_name",
    "aggregate_unit",
    "big_o",
    "rms",
}
_RATES = {"bytes_per_second": "bytes/s", "items_per_second": "items/s"}


def parse(paths: list[Path]) -> list[Result]:
    """Parse each JSON file; runs keep the order in which the file lists them."""
    results: list[Result] = []
    for path in paths:
        results.extend(_one(path))
    return results


def _one(path: Path) -> list[Result]:
    data = load_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise AdapterError(
            path, "expected an object with a 'benchmarks' list (Google Benchmark JSON)"
        )
    runs: dict[str, list[dict[str, Any]]] = {}
    means: dict[str, dict[str, Any]] = {}
    for i, b in enumerate(data["benchmarks"]):
        if not isinstance(b, dict) or not isinstance(b.get("name"), str):
            raise AdapterError(path, f"benchmarks[{i}] has no name")
        if b.get("error_occurred"):
            raise AdapterError(
                path, f"benchmark {b['name']!r} failed: {b.get('error_message', '?')}"
            )
        run_name = str(b.get("run_name") or b["name"])
        if b.get("run_type", "iteration") == "aggregate":
            if b.get("aggregate_name") == "mean":
                means[run_name] = b
            continue
        runs.setdefault(run_name, []).append(b)
    for run_name, mean in means.items():
        runs.setdefault(run_name, [mean])  # aggregates-only output: the mean is the value
    return [_result(path, name, entries) for name, entries in runs.items()]


def _result(path: Path, run_name: str, entries: list[dict[str, Any]]) -> Result:
    name, params = _split_name(run_name)
    threads = entries[0].get("threads")
    if isinstance(threads, int) and threads > 1:
        params.setdefault("threads", threads)
    columns: dict[str, tuple[str, str, list[float]]] = {}
    for b in entries:
        unit = b.get("time_unit", "ns")
        if unit not in NS_PER:
            raise AdapterError(path, f"{b['name']}: unknown time_unit {unit!r}")
        for key in ("real_time", "cpu_time"):
            value = number(path, b.get(key), f"{b['name']}.{key}") * NS_PER[unit]
            columns.setdefault(key, ("ns", LOWER, []))[2].append(value)
        for key, value in b.items():
            if key in _NOT_COUNTERS or isinstance(value, (str, bool, list, dict)) or value is None:
                continue
            rate_unit = _RATES.get(key)
            unit_shown = rate_unit or "count"
            direction = HIGHER if rate_unit else direction_for_unit(key)
            columns.setdefault(metric_name_for_unit(key), (unit_shown, direction, []))[2].append(
                number(path, value, f"{b['name']}.{key}")
            )
    aggregated = entries[0].get("run_type") == "aggregate"
    metrics = [
        metric(n, u, d, value=v[0]) if aggregated else metric(n, u, d, samples=v)
        for n, (u, d, v) in columns.items()
    ]
    return {"benchmark": name, "parameters": params, "metrics": metrics}


def _split_name(run_name: str) -> tuple[str, dict[str, Any]]:
    """`BM_Copy/len:1024/repeats:3` -> (`BM_Copy`, {len: 1024}); positional args stay put."""
    parts = run_name.split("/")
    kept, params = [parts[0]], dict[str, Any]()
    for part in parts[1:]:
        key, sep, value = part.partition(":")
        if sep and key == "repeats":
            continue
        if sep and key:
            params[key] = scalar(value)
        else:
            kept.append(part)
    return "/".join(kept), params
