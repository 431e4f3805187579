"""Lasting level shifts in a short window of one series: where they start, and whether they hold.

Segmentation follows the split-then-merge scheme of E-Divisive as Apache Otava runs it:
binary segmentation proposes up to MAX_SPLITS change points (ruptures' `Binseg` with the
median-based L1 cost, so a lone spike does not draw a split), then the weakest proposal is
merged away, again and again, while the two segments on either side of it are not
significantly different (two-sided Mann-Whitney U, p ≥ ALPHA). (Otava itself could not be
used: its package pins numpy 2.2 and scipy < 1.17.)

A **step** is a change point whose new level is worse than the segment before it by at
least the effective warn floor (medians compared), with at least 10 runs before it, and that
has held: either a one-sided Mann-Whitney U test of the runs since the change point against
the runs before it gives p < ALPHA (needs 3–4 runs at the new level), or PERSIST_RUNS runs
from the change point on (the first bad run and the next 3) are each worse by the floor.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median

import numpy as np

from benchdash.regression.engine import change_worse

ALPHA = 0.001
MAX_SPLITS = 6
MIN_SEGMENT = 2  # runs; Binseg never proposes a shorter segment
MIN_LEFT = 10  # runs before a change point needed to judge it
LEFT_RUNS = 30  # at most this many runs before a change point form its old level
MIN_RIGHT = 3  # runs at the new level before the test may confirm
PERSIST_RUNS = 4  # the first bad run and the next 3, each worse by the floor
MAX_AGE = 10  # a change point older than this many runs is no longer news


@dataclass(frozen=True)
class Step:
    """A confirmed worsening step in a window of values."""

    index: int  # first run at the new level
    level_before: float  # median of the runs before it
    level_after: float  # median of the runs since
    change: float  # fraction, positive = worse
    p_value: float
    by: str  # "change-point" | "persistence"


def _mwu(a: Sequence[float], b: Sequence[float], alternative: str) -> float:
    from scipy.stats import mannwhitneyu

    if len(set(a)) == 1 and set(a) == set(b):
        return 1.0
    p = float(mannwhitneyu(b, a, alternative=alternative).pvalue)
    return 1.0 if math.isnan(p) else p


def _proposals(values: Sequence[float]) -> list[int]:
    import ruptures as rpt

    n = len(values)
    splits = min(MAX_SPLITS, n // MIN_SEGMENT - 1)
    if splits < 1:
        return []
    signal = np.asarray(values, dtype=float).reshape(-1, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        algo = rpt.Binseg(model="l1", min_size=MIN_SEGMENT, jump=1).fit(signal)
        ends = algo.predict(n_bkps=splits)
    return [int(e) for e in ends[:-1]]


def change_points(values: Sequence[float]) -> list[int]:
    """Start indices of the significant level changes in `values` (oldest first)."""
    if len(values) < 2 * MIN_SEGMENT + 1 or len(set(values)) == 1:
        return []
    cuts = [0, *_proposals(values), len(values)]
    while len(cuts) > 2:
        pvals = [
            _mwu(values[cuts[j - 1] : cuts[j]], values[cuts[j] : cuts[j + 1]], "two-sided")
            for j in range(1, len(cuts) - 1)
        ]
        weakest = int(np.argmax(pvals))
        if pvals[weakest] < ALPHA:
            break
        del cuts[weakest + 1]
    return cuts[1:-1]


def _judge(
    values: Sequence[float], lo: int, c: int, hi: int, direction: str, floor: float
) -> Step | None:
    left, right = values[max(lo, c - LEFT_RUNS) : c], values[c:hi]
    if len(left) < MIN_LEFT or len(right) < MIN_RIGHT:
        return None
    before, after = median(left), median(right)
    change = change_worse(after, before, direction)
    if not change >= floor:
        return None
    p = _mwu(left, right, "greater" if direction == "lower_is_better" else "less")
    if p < ALPHA:
        return Step(c, before, after, change, p, "change-point")
    held = right[:PERSIST_RUNS]
    if len(held) == PERSIST_RUNS and all(change_worse(x, before, direction) >= floor for x in held):
        return Step(c, before, after, change, p, "persistence")
    return None


def newest_step(values: Sequence[float], *, direction: str, floor: float) -> Step | None:
    """The newest worsening step of at least `floor` (a fraction) that started ≤ MAX_AGE runs
    before the end of `values` and has held (module docstring), or None."""
    cuts = change_points(values)
    n = len(values)
    bounds = [0, *cuts, n]
    for j in range(len(bounds) - 2, 0, -1):
        c = bounds[j]
        if n - c > MAX_AGE:
            break
        step = _judge(values, bounds[j - 1], c, bounds[j + 1], direction, floor)
        if step is not None:
            return step
    return None
