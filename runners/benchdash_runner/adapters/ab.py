"""`ab`: the text that ApacheBench (`ab -n N -c C URL`) prints.

The benchmark is named after the file (`index.txt` -> `index`, as for wrk); its parameters are
the concurrency and the completed requests. Several runs appended to one file (each starts
with `This is ApacheBench`) become samples. Metrics: `requests_per_second` req/s and
`transfer_bytes_per_second` bytes/s (ab's Kbytes are 1024 bytes) higher is better;
`latency_mean_ms` (ab's "Time per request (mean)"), `latency_p50_ms` ... `latency_p99_ms` and
`latency_max_ms` (ab's percentile table, whole ms) in ms, `failed_requests` and
`non_2xx_responses` as counts, lower is better.
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
    read_text,
    text_number,
)
from benchdash_runner.document import metric

_BANNER = "This is ApacheBench"
_FIELDS = {  # line pattern -> metric
    re.compile(r"^Requests per second:\s+(\S+) \[#/sec\] \(mean\)$"): "requests_per_second",
    re.compile(r"^Time per request:\s+(\S+) \[ms\] \(mean\)$"): "latency_mean_ms",
    re.compile(r"^Transfer rate:\s+(\S+) \[Kbytes/sec\] received$"): "transfer_bytes_per_second",
    re.compile(r"^Failed requests:\s+(\d+)$"): "failed_requests",
    re.compile(r"^Non-2xx responses:\s+(\d+)$"): "non_2xx_responses",
}
_CONCURRENCY = re.compile(r"^Concurrency Level:\s+(\d+)$")
_COMPLETE = re.compile(r"^Complete requests:\s+(\d+)$")
_PERCENT = re.compile(r"^(\d+)%\s+(\d+)(?: \(longest request\))?$")
_UNITS = {
    "requests_per_second": ("req/s", HIGHER),
    "transfer_bytes_per_second": ("bytes/s", HIGHER),
    "failed_requests": ("count", LOWER),
    "non_2xx_responses": ("count", LOWER),
}


def parse(paths: list[Path]) -> list[Result]:
    """Parse every run of every file; runs of one file and parameters become samples."""
    groups: dict[tuple[str, int, int], dict[str, list[float]]] = {}
    for path in paths:
        lines = [line.strip() for line in read_text(path).splitlines()]
        starts = [i for i, line in enumerate(lines) if line.startswith(_BANNER)]
        if not starts:
            raise AdapterError(path, f"no '{_BANNER}' line: not ab output")
        for a, b in zip(starts, [*starts[1:], len(lines)], strict=True):
            params, values = _run(path, lines, a, b)
            group = groups.setdefault((path.stem, *params), {})
            for name, value in values.items():
                group.setdefault(name, []).append(value)
    results = []
    for (stem, concurrency, requests), group in groups.items():
        metrics = [
            metric(name, *_UNITS.get(name, ("ms", LOWER)), samples=v) for name, v in group.items()
        ]
        parameters: dict[str, Any] = {"concurrency": concurrency, "requests": requests}
        results.append({"benchmark": stem, "parameters": parameters, "metrics": metrics})
    return results


def sniff(text: str) -> bool:
    """ab's banner and its `Requests per second:` line."""
    return _BANNER in text[:4000] and "Requests per second:" in text


def _run(
    path: Path, lines: list[str], start: int, end: int
) -> tuple[tuple[int, int], dict[str, float]]:
    values: dict[str, float] = {"failed_requests": 0.0, "non_2xx_responses": 0.0}
    concurrency = complete = None
    for i in range(start + 1, end):
        line, lineno = lines[i], i + 1
        if m := _CONCURRENCY.match(line):
            concurrency = int(m.group(1))
        elif m := _COMPLETE.match(line):
            complete = int(m.group(1))
        elif m := _PERCENT.match(line):
            pct = int(m.group(1))
            values["latency_max_ms" if pct == 100 else f"latency_p{pct}_ms"] = float(m.group(2))
        else:
            for pattern, name in _FIELDS.items():
                if m := pattern.match(line):
                    values[name] = text_number(path, lineno, m.group(1))
                    break
    if concurrency is None or complete is None:
        raise AdapterError(
            path, "run without 'Concurrency Level' or 'Complete requests'", start + 1
        )
    for name in ("requests_per_second", "latency_mean_ms", "transfer_bytes_per_second"):
        if name not in values:
            raise AdapterError(path, f"run has no {name} line (truncated output?)", start + 1)
    values["transfer_bytes_per_second"] *= 1024.0
    return (concurrency, complete), values
