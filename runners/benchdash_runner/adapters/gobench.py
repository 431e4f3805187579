"""`gobench`: the text of `go test -bench . -benchmem -count N`.

Each line `BenchmarkName-P  iters  v1 unit1  v2 unit2 ...` is one sample; the N lines of a
benchmark (from `-count N`) become N samples. The `-P` suffix (GOMAXPROCS) and sub-benchmark
parts written `key=value` become parameters, as golang.org/x/perf/benchfmt reads them.
Configuration lines (`goos: linux`), PASS/ok and log output are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from benchdash_runner.adapters._base import (
    HIGHER,
    LOWER,
    AdapterError,
    Result,
    direction_for_unit,
    metric_name_for_unit,
    read_text,
    scalar,
)
from benchdash_runner.document import metric

_LINE = re.compile(r"^Benchmark(\S*)\s+(\d+)\s+(.*)$")
_PROCS = re.compile(r"^(.*)-(\d+)$")
# unit -> (metric name, unit shown, direction)
_KNOWN = {
    "ns/op": ("time", "ns", LOWER),
    "B/op": ("alloc_bytes", "B", LOWER),
    "allocs/op": ("allocs", "allocs", LOWER),
    "MB/s": ("throughput", "MB/s", HIGHER),
}


Series = dict[tuple[str, str], dict[str, Any]]


def parse(paths: list[Path]) -> list[Result]:
    """Group benchmark lines by name and parameters; each line adds one sample per unit."""
    series: Series = {}
    for path in paths:
        lines = enumerate(read_text(path).splitlines(), start=1)
        if not collect(path, lines, series):
            raise AdapterError(path, "no benchmark lines found (is this `go test -bench` output?)")
    return results_of(series)


def sniff(text: str) -> bool:
    """At least one `BenchmarkX-P  N  V unit` line."""
    return any(_LINE.match(line.strip()) for line in text.splitlines())


def collect(path: Path, lines: Iterable[tuple[int, str]], series: Series) -> int:
    """Add the benchmark lines among numbered `lines` to `series`; return how many there were."""
    found = 0
    for lineno, line in lines:
        m = _LINE.match(line.strip())
        if not m:
            continue
        found += 1
        if not m.group(1):
            raise AdapterError(path, "benchmark line without a name", lineno)
        name, params = _split_name(m.group(1))
        values = _pairs(path, lineno, m.group(3))
        key = (name, repr(sorted(params.items())))
        entry = series.setdefault(key, {"name": name, "params": params, "units": {}})
        for unit, value in values:
            entry["units"].setdefault(unit, []).append(value)
    return found


def results_of(series: Series) -> list[Result]:
    """Turn collected series into results: one metric per unit, one sample per line."""
    results = []
    for entry in series.values():
        metrics = []
        for unit, samples in entry["units"].items():
            name, shown, direction = _KNOWN.get(
                unit, (metric_name_for_unit(unit), unit, direction_for_unit(unit))
            )
            metrics.append(metric(name, shown, direction, samples=samples))
        results.append(
            {"benchmark": entry["name"], "parameters": entry["params"], "metrics": metrics}
        )
    return results


def _split_name(full: str) -> tuple[str, dict[str, Any]]:
    params: dict[str, Any] = {}
    m = _PROCS.match(full)
    if m:
        full = m.group(1)
        params["gomaxprocs"] = int(m.group(2))
    parts = full.split("/")
    kept = [parts[0]]
    for part in parts[1:]:
        key, sep, value = part.partition("=")
        if sep and key:
            params[key] = scalar(value)
        else:
            kept.append(part)
    return "/".join(kept), params


def _pairs(path: Path, lineno: int, rest: str) -> list[tuple[str, float]]:
    fields = rest.split()
    if not fields or len(fields) % 2:
        raise AdapterError(
            path, f"expected value/unit pairs after the iteration count: {rest!r}", lineno
        )
    out = []
    for value, unit in zip(fields[::2], fields[1::2], strict=True):
        try:
            v = float(value)
        except ValueError:
            raise AdapterError(path, f"{value!r} is not a number (unit {unit!r})", lineno) from None
        if v != v or v in (float("inf"), float("-inf")):
            raise AdapterError(path, f"{value!r} is not finite (unit {unit!r})", lineno)
        out.append((unit, v))
    return out
