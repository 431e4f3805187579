"""Lasting level shifts in a short window of one series: where they start, and whether they hold.

Segmentation follows the split-then-merge scheme Apache Otava uses for E-Divisive (Otava
itself cannot be installed here: its package pins numpy 2.2 and scipy < 1.17; MongoDB's
signal-processing-algorithms needs numpy < 2). Split: ruptures' `KernelCPD` (linear kernel,
i.e. least squares, solved exactly) proposes up to MAX_SPLITS change points. Merge: while
the two segments on either side of the weakest proposal are not significantly different
(two-sided Student t-test, p ≥ ALPHA = 0.001, Otava's default), that proposal is dropped.
Each survivor is then placed again by the best single split between its two neighbours.

A **step** is a change point, at most MAX_AGE runs old, whose new level (median of the runs
from it to the next change point) is worse than its old level (median of the runs since the
previous change point, at least the 20 and at most the 30 before it, never across a
restart) by at least the effective warn floor, with at least 10 runs before it, and that has
held: a one-sided Mann-Whitney U test of the new runs against the old gives p < ALPHA (with
20 old runs, 3 new runs that are all worse suffice), or the first bad run and the next 3
(PERSIST_RUNS) are each worse than the old level by the floor.
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
KERNEL = "linear"
MAX_SPLITS = 6
MIN_SEGMENT = 2  # runs; Binseg never proposes a shorter segment
MIN_LEFT = 10  # runs before a change point needed to judge it
BEFORE_RUNS = 20  # the old level: runs since the previous change point, at least 20 …
LEFT_RUNS = 30  # … and at most 30
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


def _mwu(before: Sequence[float], after: Sequence[float], direction: str) -> float:
    """One-sided Mann-Whitney U p-value for "`after` is worse than `before`".

    The exact null distribution is used (the new segment is short): with 20 old runs, 3 new
    runs all worse give p = 1/1771, while the normal approximation would say 0.003.
    """
    from scipy.stats import mannwhitneyu

    if len(set(before)) == 1 and set(before) == set(after):
        return 1.0
    alternative = "greater" if direction == "lower_is_better" else "less"
    p = float(mannwhitneyu(after, before, alternative=alternative, method="exact").pvalue)
    return 1.0 if math.isnan(p) else p


def _proposals(values: Sequence[float], most: int = MAX_SPLITS) -> list[int]:
    """The least-squares split of `values` into at most `most` + 1 segments (ruptures)."""
    import ruptures as rpt

    splits = min(most, len(values) // MIN_SEGMENT - 1)
    if splits < 1:
        return []
    signal = np.asarray(values, dtype=float).reshape(-1, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        algo = rpt.KernelCPD(kernel=KERNEL, min_size=MIN_SEGMENT, jump=1).fit(signal)
        ends = algo.predict(n_bkps=splits)
    return [int(e) for e in ends[:-1]]


def _student(a: Sequence[float], b: Sequence[float]) -> float:
    """Two-sided Student t-test p-value of two segments (1.0 when it is undefined)."""
    from scipy.stats import ttest_ind_from_stats

    xa, xb = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    sa, sb = float(xa.std(ddof=1)), float(xb.std(ddof=1))
    if sa == 0 and sb == 0:
        return 0.0 if xa.mean() != xb.mean() else 1.0
    p = ttest_ind_from_stats(xa.mean(), sa, len(xa), xb.mean(), sb, len(xb), equal_var=True)
    return 1.0 if math.isnan(p.pvalue) else float(p.pvalue)


def change_points(values: Sequence[float]) -> list[int]:
    """Start indices of the significant level changes in `values` (oldest first)."""
    if len(values) < 2 * MIN_SEGMENT + 1 or len(set(values)) == 1:
        return []
    cuts = [0, *_proposals(values), len(values)]

    def pval(j: int) -> float:
        return _student(values[cuts[j - 1] : cuts[j]], values[cuts[j] : cuts[j + 1]])

    pvals = [pval(j) for j in range(1, len(cuts) - 1)]
    while pvals:
        weakest = int(np.argmax(pvals))
        if pvals[weakest] < ALPHA:
            break
        del cuts[weakest + 1], pvals[weakest]
        for j in (weakest, weakest + 1):  # the cuts on either side of the merged one
            if 1 <= j < len(cuts) - 1:
                pvals[j - 1] = pval(j)
    for j in range(1, len(cuts) - 1):  # place each survivor again between its neighbours
        cuts[j] = cuts[j - 1] + _proposals(values[cuts[j - 1] : cuts[j + 1]], 1)[0]
    return cuts[1:-1]


def _judge(
    values: Sequence[float], lo: int, c: int, hi: int, direction: str, floor: float
) -> Step | None:
    left, right = values[max(0, min(lo, c - BEFORE_RUNS), c - LEFT_RUNS) : c], values[c:hi]
    if len(left) < MIN_LEFT or len(right) < MIN_RIGHT:
        return None
    before, after = median(left), median(right)
    change = change_worse(after, before, direction)
    if not change >= floor:
        return None
    p = _mwu(left, right, direction)
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
