"""`oha`: the JSON that `oha --no-tui --output-format json URL` prints.

oha does not write its settings, so the benchmark is named after the file (`index.json` ->
`index`, as for wrk, ab and hey) and has no parameters; files of the same name (from separate
directories, one per run) become samples. Metrics: `requests_per_second` req/s and
`body_bytes_per_second` bytes/s (oha counts bodies only) higher is better; `latency_avg_ms`,
`latency_min_ms`, `latency_max_ms` and `latency_p10_ms` ... `latency_p99_99_ms` in ms (oha
writes seconds); `non_2xx_responses` (the status code distribution outside 2xx) and `errors`
(the error distribution) as counts, lower is better. oha's `successRate` counts any answer,
404s too, so the counts are kept instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchdash_runner.adapters._base import (
    HIGHER,
    LOWER,
    AdapterError,
    Result,
    load_json,
    number,
)
from benchdash_runner.document import metric

_SUMMARY = {  # summary key -> (metric, unit, direction, scale)
    "requestsPerSec": ("requests_per_second", "req/s", HIGHER, 1.0),
    "sizePerSec": ("body_bytes_per_second", "bytes/s", HIGHER, 1.0),
    "average": ("latency_avg_ms", "ms", LOWER, 1e3),
    "fastest": ("latency_min_ms", "ms", LOWER, 1e3),
    "slowest": ("latency_max_ms", "ms", LOWER, 1e3),
}


def parse(paths: list[Path]) -> list[Result]:
    """One result per file name; same-named files add samples."""
    groups: dict[str, dict[str, tuple[str, str, list[float]]]] = {}
    for path in paths:
        data = load_json(path)
        if not sniff(data):
            raise AdapterError(
                path, "expected oha JSON (--output-format json): 'summary' and 'latencyPercentiles'"
            )
        group = groups.setdefault(path.stem, {})
        for name, unit, direction, value in _values(path, data):
            group.setdefault(name, (unit, direction, []))[2].append(value)
    return [
        {
            "benchmark": stem,
            "parameters": {},
            "metrics": [metric(n, u, d, samples=v) for n, (u, d, v) in group.items()],
        }
        for stem, group in groups.items()
    ]


def sniff(data: Any) -> bool:
    """oha's `summary` (with `requestsPerSec`) beside `latencyPercentiles`."""
    return (
        isinstance(data, dict)
        and isinstance(data.get("summary"), dict)
        and "requestsPerSec" in data["summary"]
        and "latencyPercentiles" in data
    )


def _values(path: Path, data: dict[str, Any]) -> list[tuple[str, str, str, float]]:
    out = []
    summary = data["summary"]
    for key, (name, unit, direction, scale) in _SUMMARY.items():
        if key in summary:
            value = number(path, summary[key], f"summary.{key}")
            # seconds to ms: round away the float noise of the conversion (oha gives ns)
            out.append((name, unit, direction, round(value * scale, 9) if scale != 1 else value))
    pcts = data.get("latencyPercentiles") or {}
    for key, seconds in pcts.items() if isinstance(pcts, dict) else ():
        ms = number(path, seconds, f"latencyPercentiles.{key}") * 1e3
        out.append((f"latency_{str(key).replace('.', '_')}_ms", "ms", LOWER, round(ms, 9)))
    codes = data.get("statusCodeDistribution") or {}
    non2xx = sum(
        (
            number(path, n, f"statusCodeDistribution.{code}")
            for code, n in codes.items()
            if not str(code).startswith("2")
        ),
        0.0,
    )
    errors = data.get("errorDistribution") or {}
    failed = sum((number(path, n, f"errorDistribution[{k!r}]") for k, n in errors.items()), 0.0)
    out.append(("non_2xx_responses", "count", LOWER, non2xx))
    out.append(("errors", "count", LOWER, failed))
    return out
