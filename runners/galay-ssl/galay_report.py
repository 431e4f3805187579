"""galay-ssl's bench client reports and the document's results (standard library only: the
driver imports this module beside it).

A client prints `Label: value` lines (bench/bench_common.cc) and a `TLS:` line; a server prints
`Final stats:` and its totals when it stops. Each round of a scenario is one sample per metric;
`qps_ratio` is ours over the reference's QPS in the same round.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

REFERENCE_BENCHMARK = "libevent_reference"
H, L = "higher_is_better", "lower_is_better"
METRICS = (
    ("qps", "req/s", H),
    ("throughput", "MiB/s", H),
    ("duration_ms", "ms", L),
    ("errors", "errors", L),
    ("requests", "requests", H),
)
# Report label -> key (bench/bench_common.cc prints them; Duration us is the precise duration).
FIELDS = {
    "Total requests": "requests",
    "Total errors": "errors",
    "Requests/sec": "qps",
    "Throughput": "throughput",
    "Duration us": "duration_us",
}


def parse_report(text: str) -> dict[str, float]:
    """The numbers of a client's `Label: value` report; ValueError naming what is missing."""
    values: dict[str, float] = {}
    for line in text.splitlines():
        label, sep, rest = line.partition(": ")
        if sep and label in FIELDS and rest.split():
            values[FIELDS[label]] = float(rest.split()[0])
    missing = [label for label, key in FIELDS.items() if key not in values]
    if missing:
        raise ValueError(f"the client report lacks {', '.join(missing)}")
    values["duration_ms"] = values.pop("duration_us") / 1000.0
    return values


def negotiated(text: str) -> str | None:
    """The `TLS:` line of a report (protocol and cipher of one connection)."""
    found = re.search(r"^TLS: (.+)$", text, re.M)
    return found.group(1).strip() if found else None


def result(name: str, params: dict[str, Any], rounds: list[dict[str, float]]) -> dict[str, Any]:
    """One benchmark of the document: a sample per round for every metric."""
    metrics = [
        {"name": m, "unit": unit, "direction": d, "samples": [r[m] for r in rounds]}
        for m, unit, d in METRICS
    ]
    return {"benchmark": name, "parameters": params, "metrics": metrics}


def qps_ratio(ours: list[dict[str, float]], ref: list[dict[str, float]]) -> dict[str, Any] | None:
    """Ours over the reference's QPS, round by round (rounds where the reference did nothing
    are left out); None when no round can be compared."""
    samples = [o["qps"] / r["qps"] for o, r in zip(ours, ref, strict=True) if r["qps"] > 0]
    if not samples:
        return None
    return {"name": "qps_ratio", "unit": "x", "direction": H, "samples": samples}


def server_totals(log: Path) -> str:
    """The server's `Final stats` as one line."""
    lines = log.read_text().splitlines() if log.exists() else []
    if "Final stats:" not in lines:
        return "no final stats"
    return ", ".join(lines[lines.index("Final stats:") + 1 :])
