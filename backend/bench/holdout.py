"""Score the detector on the held-out synthetic families (`synthetic_holdout.py`).

Per family: drift — alerted as a drift before the cumulative change reached 15 %, and the
cumulative change when it was; step12 — found (an alert within 5 runs of the step) and
graded fail; flat, heavy, bimodal, spiky — series with any alert, and alerts in all.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from typing import Any

from synthetic_holdout import DRIFT_PER_RUN, FAMILIES, Family

from benchdash.regression.engine import Thresholds
from benchdash.regression.model import Point
from benchdash.regression.replay import replay

QUIET = ("flat", "heavy", "bimodal", "spiky")
DRIFT_LIMIT = 0.15
MARGIN = 5

Replay = Callable[[Family], list[dict[str, Any]]]


def run(s: Family) -> list[dict[str, Any]]:
    """The CI-fed replay of one held-out series."""
    pts = [Point(i, v, f"c{i}") for i, v in enumerate(s.values)]
    return replay(pts, direction=s.direction, thresholds=Thresholds())


def summary(series: list[Family], alerts: list[list[dict[str, Any]]]) -> dict[str, str]:
    """One cell per measure (see the module docstring)."""
    by: dict[str, list[tuple[Family, list[dict[str, Any]]]]] = {f: [] for f in FAMILIES}
    for s, out in zip(series, alerts, strict=True):
        by[s.family].append((s, out))
    cells: dict[str, str] = {}
    early, reached = 0, []
    for s, out in by["drift"]:
        assert s.start is not None
        first = next((a for a in out if a.get("kind") == "drift"), None)
        if first is not None:
            cum = (first["alarm_index"] - s.start + 1) * DRIFT_PER_RUN
            reached.append(cum * 100)
            early += cum < DRIFT_LIMIT
    n = len(by["drift"])
    med = f"{statistics.median(reached):.1f} %" if reached else "–"
    cells["drift alerted < 15 %"] = f"{early}/{n} (median at {med})"
    found = fail = 0
    for s, out in by["step12"]:
        hit = [a for a in out if s.start is not None and abs(a["index"] - s.start) <= MARGIN]
        found += bool(hit)
        fail += bool(hit) and hit[0]["level"] == "fail"
    cells["12 % step found / fail"] = f"{found}/{len(by['step12'])} / {fail}"
    for f in QUIET:
        noisy = sum(1 for _, out in by[f] if out)
        cells[f"{f}: series alerted"] = f"{noisy}/{len(by[f])}"
    return cells


def table(rows: dict[str, dict[str, str]]) -> None:
    """Print rows of `summary` cells as one Markdown table."""
    head = list(next(iter(rows.values())))
    print("| detector | " + " | ".join(head) + " |")
    print("|" + "---|" * (len(head) + 1))
    for name, cells in rows.items():
        print(f"| {name} | " + " | ".join(cells[h] for h in head) + " |")
