"""Slow drifts: the current level of a series against its level DRIFT_RUNS runs ago.

A series that gets 0.1 % slower on every run hides each step in its noise, and the
baseline of the per-upload verdicts follows it. The drift check compares two levels far
apart instead: the **reference**, the median of the LEVEL_RUNS runs that ended DRIFT_RUNS
runs before the newest, and the **current** level, the median of the newest LEVEL_RUNS runs.
A drift is found when the current level is worse than the reference by at least the
configured warn threshold (a median of 10 runs is measured far more precisely than one run,
so the single-run floors do not apply), a one-sided Mann–Whitney U test of the current
runs against the reference runs gives p < DRIFT_ALPHA (10 runs against 10, all worse: p = 5e-6;
stricter than a step's test, since the check runs at every run), and both held at the
PERSIST - 1 runs before too (a passing excursion of the noise is not a drift).
Graded fail when the change exceeds the configured fail threshold.

A steady trend steep enough to look like a step to `changepoint.py` within its shorter
window — a straight line fits the window at least as well as the step (`trend_like`) — is
reported as a drift of that window instead (`span`: from the window's first LEVEL_RUNS
runs to the newest LEVEL_RUNS), once: while a drift alert is open, neither check opens
another, so a trend is not re-alerted every few runs as a new step.

The values never reach across a confirmed step or an accepted change (the detector cuts
the window there), so a step is never counted again as drift. The runs that contributed
most are the (at most CONTRIBUTORS, LOCAL_RUNS apart) runs of the window with the largest
local worsening: the median of the LOCAL_RUNS runs from it on against the LOCAL_RUNS before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median

import numpy as np

from benchdash.regression.changepoint import mwu
from benchdash.regression.engine import Level, Thresholds, change_worse

DRIFT_RUNS = 60  # the reference level ended this many runs before the newest
LEVEL_RUNS = 10  # each level is the median of this many runs
CONTRIBUTORS = 3
LOCAL_RUNS = 5
DRIFT_ALPHA = 1e-4  # stricter than a step's: the check runs at every run of a long history
PERSIST = 3  # the drift must hold at this many newest runs in a row (not a passing excursion)
HISTORY = DRIFT_RUNS + LEVEL_RUNS + PERSIST - 2  # earlier runs a drift check reads (new: +1)


@dataclass(frozen=True)
class Drift:
    """A cumulative worsening over the window values[start:] (indices into the values)."""

    reference_start: int  # first run of the reference level
    start: int  # first run after the reference: the window that drifted
    reference: float  # the reference level (median)
    current: float  # the current level (median of the newest LEVEL_RUNS)
    change: float  # fraction, positive = worse
    p_value: float
    level: Level  # warn | fail, by the configured thresholds
    contributors: tuple[tuple[int, float], ...]  # (index, local worsening as a fraction)


def contributors(
    values: Sequence[float], start: int, direction: str, most: int = CONTRIBUTORS
) -> list[tuple[int, float]]:
    """The runs of values[start:] that worsened the level most (index, local change), each
    at least LOCAL_RUNS from the others, largest first; only worsenings are named."""
    local = []
    for i in range(max(start, 1), len(values)):
        before, after = values[max(0, i - LOCAL_RUNS) : i], values[i : i + LOCAL_RUNS]
        local.append((change_worse(median(after), median(before), direction), i))
    chosen: list[tuple[int, float]] = []
    for change, i in sorted(local, key=lambda c: (-c[0], c[1])):
        if change <= 0 or len(chosen) == most:
            break
        if all(abs(i - j) >= LOCAL_RUNS for j, _ in chosen):
            chosen.append((i, change))
    return chosen


def trend_like(values: Sequence[float], c: int) -> bool:
    """Whether a straight line fits `values` at least as well (least squares) as a step at
    `c` does (one level before, one after): a steady trend, not a step."""
    x = np.arange(len(values), dtype=float)
    y = np.asarray(values, dtype=float)
    if len(y) < 4 or not 2 <= c <= len(y) - 2:
        return False
    slope, icept = np.polyfit(x, y, 1)
    line = float(np.sum((y - (slope * x + icept)) ** 2))
    step = float(np.sum((y[:c] - y[:c].mean()) ** 2) + np.sum((y[c:] - y[c:].mean()) ** 2))
    return line <= step


def drift(
    values: Sequence[float], *, direction: str, thresholds: Thresholds, span: int | None = None
) -> Drift | None:
    """The drift of the newest runs of `values` (oldest first, the newest last), or None;
    `span`: the reference ends that many runs before the newest (default DRIFT_RUNS)."""
    n, span = len(values), span or DRIFT_RUNS
    if n < span + LEVEL_RUNS or span < LEVEL_RUNS:
        return None
    ref_start = n - span - LEVEL_RUNS
    reference, current = values[ref_start : n - span], values[n - LEVEL_RUNS :]
    ref, cur = median(reference), median(current)
    change = change_worse(cur, ref, direction)
    if not change * 100 >= thresholds.warn:
        return None
    p = mwu(reference, current, direction)
    if p >= DRIFT_ALPHA or not _persists(values, direction, thresholds, span):
        return None
    level = Level.FAIL if change * 100 > thresholds.fail else Level.WARN
    start = n - span
    named = tuple(contributors(values, start, direction))
    return Drift(ref_start, start, ref, cur, change, p, level, named)


def _persists(values: Sequence[float], direction: str, thresholds: Thresholds, span: int) -> bool:
    """Whether the same comparison also held at each of the PERSIST - 1 runs before."""
    for back in range(1, PERSIST):
        n = len(values) - back
        if n < span + LEVEL_RUNS:
            return False
        reference, current = values[n - span - LEVEL_RUNS : n - span], values[n - LEVEL_RUNS : n]
        change = change_worse(median(current), median(reference), direction)
        if change * 100 < thresholds.warn or mwu(reference, current, direction) >= DRIFT_ALPHA:
            return False
    return True
