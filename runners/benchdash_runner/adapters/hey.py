"""`hey`: the summary text that `hey -n N -c C URL` prints (its default output).

hey does not print its settings, so the benchmark is named after the file (`index.txt` ->
`index`, as for wrk and ab) and has no parameters; several runs appended to one file (each
starts with `Summary:`) become samples. Metrics: `requests_per_second` req/s (higher is
better); `latency_avg_ms`, `latency_min_ms`, `latency_max_ms` and the latency distribution
`latency_p10_ms` ... `latency_p99_ms` in ms (hey prints seconds; hey 0.1.5 writes the percent
sign twice, `50%% in`); `non_2xx_responses` (the status code distribution outside 2xx) and
`errors` (the error distribution) as counts; all lower is better but the rate.
"""

from __future__ import annotations

import re
from pathlib import Path

from benchdash_runner.adapters._base import (
    HIGHER,
    LOWER,
    AdapterError,
    Result,
    read_text,
    text_number,
)
from benchdash_runner.document import metric

_SUMMARY = {
    "Slowest": "latency_max_ms",
    "Fastest": "latency_min_ms",
    "Average": "latency_avg_ms",
}
_SECS = re.compile(r"^(Slowest|Fastest|Average):\s+(\S+) secs$")
_RPS = re.compile(r"^Requests/sec:\s+(\S+)$")
_PCT = re.compile(r"^(\d+)%{1,2} in (\S+) secs$")
_STATUS = re.compile(r"^\[(\d{3})\]\s+(\d+) responses$")
_ERROR = re.compile(r"^\[(\d+)\]\s+\S")
_COUNTS = ("non_2xx_responses", "errors")


def parse(paths: list[Path]) -> list[Result]:
    """Parse every run of every file; runs named alike become samples."""
    groups: dict[str, dict[str, list[float]]] = {}
    for path in paths:
        lines = [line.strip() for line in read_text(path).splitlines()]
        starts = [i for i, line in enumerate(lines) if line == "Summary:"]
        if not starts:
            raise AdapterError(path, "no 'Summary:' line: not hey output")
        for a, b in zip(starts, [*starts[1:], len(lines)], strict=True):
            group = groups.setdefault(path.stem, {})
            for name, value in _run(path, lines, a, b).items():
                group.setdefault(name, []).append(value)
    results = []
    for stem, group in groups.items():
        metrics = []
        for name, samples in group.items():
            unit, direction = (
                ("req/s", HIGHER)
                if name == "requests_per_second"
                else ("count", LOWER)
                if name in _COUNTS
                else ("ms", LOWER)
            )
            metrics.append(metric(name, unit, direction, samples=samples))
        results.append({"benchmark": stem, "parameters": {}, "metrics": metrics})
    return results


def sniff(text: str) -> bool:
    """hey's `Summary:` block with `Requests/sec:` and its `Response time histogram:`."""
    return "Summary:" in text and "Requests/sec:" in text and "Response time histogram:" in text


def _run(path: Path, lines: list[str], start: int, end: int) -> dict[str, float]:
    values: dict[str, float] = {"non_2xx_responses": 0.0, "errors": 0.0}
    section = ""
    for i in range(start + 1, end):
        line, lineno = lines[i], i + 1
        if line.endswith(":") and not line.startswith("["):
            section = line
        elif m := _SECS.match(line):
            values[_SUMMARY[m.group(1)]] = _ms(path, lineno, m.group(2))
        elif m := _RPS.match(line):
            values["requests_per_second"] = text_number(path, lineno, m.group(1))
        elif m := _PCT.match(line):
            values[f"latency_p{m.group(1)}_ms"] = _ms(path, lineno, m.group(2))
        elif section == "Status code distribution:" and (m := _STATUS.match(line)):
            if not m.group(1).startswith("2"):
                values["non_2xx_responses"] += int(m.group(2))
        elif section == "Error distribution:" and (m := _ERROR.match(line)):
            values["errors"] += int(m.group(1))
    for name in ("requests_per_second", "latency_avg_ms"):
        if name not in values:
            raise AdapterError(path, f"run has no {name} line (truncated output?)", start + 1)
    return values


def _ms(path: Path, lineno: int, seconds: str) -> float:
    """Seconds as hey prints them, in ms."""
    # hey prints 4 decimals of seconds: round away the float noise of the conversion.
    return round(text_number(path, lineno, seconds) * 1e3, 6)
