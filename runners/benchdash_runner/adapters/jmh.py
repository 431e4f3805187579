"""`jmh`: the file JMH writes with `-rf json -rff FILE` (a list, one entry per benchmark run).

The benchmark is JMH's `benchmark` (package.Class.method), `params` become parameters. The
primary metric is named by the mode: `thrpt` -> `throughput` in ops/s (higher is better),
`avgt` -> `time`, `sample` -> `sample_time`, `ss` -> `single_shot_time`, all in ns (lower is
better); every `scoreUnit` is converted (`ops/ms`, `us/op`, ...). Samples are `rawData`, one per
measurement iteration of every fork. Sample mode keeps histograms, not iterations: its value
is JMH's score (the mean); the percentiles JMH reports per iteration (`p0.50`, ..., `p1.00`)
become `sample_time_p50`, ..., `sample_time_max` with those samples. Secondary metrics
(`-prof gc`: `gc.alloc.rate.norm` -> `gc_alloc_rate_norm` in B/op) keep their unit and
their rawData; they are costs (lower is better) unless counted in ops/time (@AuxCounters).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from benchdash_runner.adapters._base import (
    HIGHER,
    LOWER,
    AdapterError,
    Result,
    load_json,
    metric_name_for_unit,
    number,
    scalar,
)
from benchdash_runner.document import metric

_MODES = {"thrpt": "throughput", "avgt": "time", "sample": "sample_time", "ss": "single_shot_time"}
_PER = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0, "hr": 3600.0}
_PERCENTILE = re.compile(r"p([01]\.\d+)")


def parse(paths: list[Path]) -> list[Result]:
    """One result per (benchmark, params); modes of one method add metrics to it."""
    merged: dict[tuple[str, str], Result] = {}
    for path in paths:
        data = load_json(path)
        if not isinstance(data, list) or not all(isinstance(e, dict) for e in data):
            raise AdapterError(path, "expected a JSON list of JMH results (-rf json)")
        for i, entry in enumerate(data):
            name, params, metrics = _one(path, i, entry)
            key = (name, repr(sorted(params.items())))
            result = merged.setdefault(
                key, {"benchmark": name, "parameters": params, "metrics": []}
            )
            result["metrics"].extend(metrics)
    return list(merged.values())


def sniff(data: Any) -> bool:
    """A non-empty list whose entries all carry a `primaryMetric`."""
    return (
        isinstance(data, list)
        and bool(data)
        and all(isinstance(e, dict) and "primaryMetric" in e for e in data)
    )


def _one(path: Path, i: int, entry: dict[str, Any]) -> tuple[str, dict[str, Any], list[Any]]:
    name, mode = entry.get("benchmark"), entry.get("mode")
    if not isinstance(name, str) or not isinstance(entry.get("primaryMetric"), dict):
        raise AdapterError(path, f"[{i}] has no benchmark name or primaryMetric")
    where = f"[{i}] ({name})"
    if mode not in _MODES:
        raise AdapterError(path, f"{where}: unknown mode {mode!r}; known: {', '.join(_MODES)}")
    params = {str(k): scalar(str(v)) for k, v in (entry.get("params") or {}).items()}
    primary = entry["primaryMetric"]
    unit = primary.get("scoreUnit")
    scale, shown, direction = _scale(path, where, unit)
    metric_name = _MODES[mode]
    score = number(path, primary.get("score"), f"{where}.primaryMetric.score") * scale
    metrics = []
    samples = _raw(path, where, primary.get("rawData"), scale)
    if mode != "sample" and samples:
        metrics.append(metric(metric_name, shown, direction, samples=samples))
    else:
        metrics.append(metric(metric_name, shown, direction, value=score))
    for key, sec in (entry.get("secondaryMetrics") or {}).items():
        pct = _PERCENTILE.fullmatch(str(key)) if mode == "sample" else None
        if pct and isinstance(sec, dict):  # sample mode: per-iteration percentiles
            k_where = f"{where}.secondaryMetrics[{key}]"
            k_scale, k_shown, _ = _scale(path, k_where, sec.get("scoreUnit"))
            pct_metric = f"{metric_name}_{_pct_name(pct.group(1))}"
            pct_samples = _raw(path, k_where, sec.get("rawData"), k_scale)
            metrics.append(metric(pct_metric, k_shown, LOWER, samples=pct_samples))
        else:
            metrics.append(_secondary(path, where, str(key), sec))
    return name, params, metrics


def _pct_name(fraction: str) -> str:
    """`0.00` -> min, `1.00` -> max, `0.999` -> p99_9, `0.50` -> p50."""
    f = float(fraction)
    if f in (0.0, 1.0):
        return "min" if f == 0.0 else "max"
    return "p" + f"{f * 100:.4f}".rstrip("0").rstrip(".").replace(".", "_")


def _scale(path: Path, where: str, unit: Any) -> tuple[float, str, str]:
    """Factor to ns (time per op) or to ops/s (throughput), the unit shown and the direction."""
    m = re.fullmatch(r"(ns|us|ms|s|min|hr)/op", unit) if isinstance(unit, str) else None
    if m:
        return _PER[m.group(1)] * 1e9, "ns", LOWER
    m = re.fullmatch(r"ops/(ns|us|ms|s|min|hr)", unit) if isinstance(unit, str) else None
    if m:
        return 1.0 / _PER[m.group(1)], "ops/s", HIGHER
    raise AdapterError(path, f"{where}: unknown scoreUnit {unit!r}")


def _secondary(path: Path, where: str, key: str, sec: Any) -> Any:
    if not isinstance(sec, dict):
        raise AdapterError(path, f"{where}: secondary metric {key!r} is not an object")
    where = f"{where}.secondaryMetrics[{key}]"
    unit = str(sec.get("scoreUnit") or "value")
    # @AuxCounters count operations (ops/s: more is better); profilers (gc.alloc.rate MB/sec,
    # gc.count, gc.time) measure a cost.
    direction = HIGHER if unit.startswith("ops/") else LOWER
    name = metric_name_for_unit(key)
    samples = _raw(path, where, sec.get("rawData"), 1.0)
    if samples:
        return metric(name, unit, direction, samples=samples)
    return metric(name, unit, direction, value=number(path, sec.get("score"), f"{where}.score"))


def _raw(path: Path, where: str, raw: Any, scale: float) -> list[float]:
    """rawData: one list per fork of one value per measurement iteration."""
    if not isinstance(raw, list):
        return []
    return [
        number(path, v, f"{where}.rawData[{f}][{k}]") * scale
        for f, fork in enumerate(raw)
        for k, v in enumerate(fork if isinstance(fork, list) else [fork])
    ]
