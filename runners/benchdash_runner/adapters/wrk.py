"""`wrk`: the text wrk prints, with or without `--latency`.

A file may hold several runs (`Running ...` blocks, e.g. 5 rounds appended to one log); runs
with the same threads, connections and duration become samples of one benchmark, named after
the file (`medium.txt` -> `medium`). Units are made uniform: latency in ms, throughput in
req/s and bytes/s (wrk's KB/MB are 1024-based), errors as counts.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from benchdash_runner.adapters._base import HIGHER, LOWER, NS_PER, AdapterError, Result, read_text
from benchdash_runner.document import metric

_RUNNING = re.compile(r"^Running (\S+) test @ (\S+)")
_THREADS = re.compile(r"^(\d+) threads? and (\d+) connections?$")
_LATENCY = re.compile(r"^Latency\s+(\d\S*)\s+(\S+)\s+(\S+)")
_PERCENTILE = re.compile(r"^(\d+(?:\.\d+)?)%\s+(\S+)$")
_SOCKET = re.compile(r"^Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)$")
_NON2XX = re.compile(r"^Non-2xx or 3xx responses: (\d+)$")
_RPS = re.compile(r"^Requests/sec:\s+(\S+)$")
_TPS = re.compile(r"^Transfer/sec:\s+(\S+)$")
_QUANTITY = re.compile(r"^(\d+(?:\.\d+)?)([a-zA-Zµ]*)$")
_DURATION_S = {"": 1, "s": 1, "m": 60, "h": 3600}
_METRIC_MULT = {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
_BINARY_MULT = {"B": 1.0, "KB": 1024.0, "MB": 1024.0**2, "GB": 1024.0**3, "TB": 1024.0**4}
_UNITS = {  # metric name -> (unit, direction)
    "requests_per_second": ("req/s", HIGHER),
    "transfer_bytes_per_second": ("bytes/s", HIGHER),
    "non_2xx_responses": ("count", LOWER),
}
_SOCKET_KINDS = ("connect", "read", "write", "timeout")


def parse(paths: list[Path]) -> list[Result]:
    """Parse every run in every file; same-named, same-parameter runs become samples."""
    groups: dict[tuple[str, int, int, float], dict[str, list[float]]] = {}
    for path in paths:
        for params, values in _runs(path):
            key = (path.stem, params["threads"], params["connections"], params["duration_s"])
            group = groups.setdefault(key, {})
            for name, value in values.items():
                group.setdefault(name, []).append(value)
    results = []
    for (stem, threads, connections, duration), group in groups.items():
        metrics = [metric(name, *_unit(name), samples=v) for name, v in group.items()]
        parameters: dict[str, Any] = {
            "threads": threads,
            "connections": connections,
            "duration_s": duration,
        }
        results.append({"benchmark": stem, "parameters": parameters, "metrics": metrics})
    return results


def _unit(name: str) -> tuple[str, str]:
    if name in _UNITS:
        return _UNITS[name]
    if name.startswith("latency_"):
        return "ms", LOWER
    return "count", LOWER  # socket_errors_*


def _runs(path: Path) -> list[tuple[dict[str, Any], dict[str, float]]]:
    lines = [line.strip() for line in read_text(path).splitlines()]
    starts = [i for i, line in enumerate(lines) if _RUNNING.match(line)]
    if not starts:
        raise AdapterError(path, "no 'Running ... test @ URL' line: not wrk output")
    ends = [*starts[1:], len(lines)]
    return [_block(path, lines, a, b) for a, b in zip(starts, ends, strict=True)]


def _block(
    path: Path, lines: list[str], start: int, end: int
) -> tuple[dict[str, Any], dict[str, float]]:
    head = _RUNNING.match(lines[start])
    assert head is not None
    params: dict[str, Any] = {"duration_s": _duration(path, start + 1, head.group(1))}
    values: dict[str, float] = {}
    socket = dict.fromkeys(_SOCKET_KINDS, 0.0)
    non2xx = 0.0
    for i in range(start + 1, end):
        line, lineno = lines[i], i + 1
        if m := _THREADS.match(line):
            params["threads"], params["connections"] = int(m.group(1)), int(m.group(2))
        elif m := _LATENCY.match(line):
            for stat, text in zip(("avg", "stdev", "max"), m.groups(), strict=True):
                values[f"latency_{stat}_ms"] = _time_ms(path, lineno, text)
        elif m := _PERCENTILE.match(line):
            pct = m.group(1).rstrip("0").rstrip(".") if "." in m.group(1) else m.group(1)
            values[f"latency_p{pct.replace('.', '_')}_ms"] = _time_ms(path, lineno, m.group(2))
        elif m := _SOCKET.match(line):
            socket = {k: float(v) for k, v in zip(_SOCKET_KINDS, m.groups(), strict=True)}
        elif m := _NON2XX.match(line):
            non2xx = float(m.group(1))
        elif m := _RPS.match(line):
            values["requests_per_second"] = _scaled(path, lineno, m.group(1), _METRIC_MULT)
        elif m := _TPS.match(line):
            values["transfer_bytes_per_second"] = _scaled(path, lineno, m.group(1), _BINARY_MULT)
    for key, what in (("threads", "'N threads and M connections'"), ("latency_avg_ms", "Latency")):
        if key not in params and key not in values:
            raise AdapterError(path, f"run has no {what} line", start + 1)
    for key, what in (
        ("requests_per_second", "Requests/sec"),
        ("transfer_bytes_per_second", "Transfer/sec"),
    ):
        if key not in values:
            raise AdapterError(path, f"run has no {what} line (truncated output?)", start + 1)
    values["non_2xx_responses"] = non2xx
    for kind, count in socket.items():
        values[f"socket_errors_{kind}"] = count
    return params, values


def _quantity(path: Path, lineno: int, text: str) -> tuple[float, str]:
    m = _QUANTITY.match(text)
    if not m:
        raise AdapterError(path, f"cannot read {text!r} as a number with a unit", lineno)
    return float(m.group(1)), m.group(2)


def _time_ms(path: Path, lineno: int, text: str) -> float:
    value, unit = _quantity(path, lineno, text)
    if unit not in NS_PER:
        raise AdapterError(path, f"unknown time unit in {text!r}", lineno)
    return value * NS_PER[unit] / 1e6


def _scaled(path: Path, lineno: int, text: str, table: dict[str, float]) -> float:
    value, unit = _quantity(path, lineno, text)
    if unit not in table:
        raise AdapterError(path, f"unknown unit in {text!r}", lineno)
    return value * table[unit]


def _duration(path: Path, lineno: int, text: str) -> float:
    value, unit = _quantity(path, lineno, text)
    if unit not in _DURATION_S:
        raise AdapterError(path, f"unknown duration {text!r}", lineno)
    seconds = value * _DURATION_S[unit]
    return int(seconds) if seconds.is_integer() else seconds
