"""Lasting level shifts in a short window of one series: where they start, and whether they hold.

Segmentation follows the split-then-merge scheme Apache Otava uses for E-Divisive (Otava
itself cannot be installed here: its package pins numpy 2.2 and scipy < 1.17; MongoDB's
signal-processing-algorithms needs numpy < 2). Split: ruptures' `KernelCPD` (linear kernel,
i.e. least squares, solved exactly) proposes up to MAX_SPLITS change points. Merge, as
Otava's merge step: while the two segments on either side of the weakest proposal are not
significantly different (two-sided Student t-test, p ≥ ALPHA = 0.001, Otava's default) —
and, when looking for steps, while their medians differ by less than the warn floor (Otava's
minimum magnitude) — that proposal is dropped. Each survivor is then placed again by the
best single split between its two neighbours.

A **step** is a worsening of at least the effective warn floor that started at most MAX_AGE
runs ago, with at least 10 runs before it, confirmed in one of two ways:

- change point: the new level (median of the runs from the change point to the newest) is
  worse than the old (median of the runs since the previous change point, at least the 20
  and at most the 30 before it) by the floor, and a one-sided Mann-Whitney U test of the new
  runs against the old gives p < ALPHA (with 20 old runs, 3 new runs all worse suffice);
- persistence: the first bad run and the next 3 (PERSIST_RUNS) are each worse than the
  median of the (up to 30) runs before the first by the floor.

`values` never reach across a baseline restart: the detector cuts the window there.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import median

import numpy as np

from benchdash.regression.engine import change_worse

ALPHA = 0.001
KERNEL = "linear"
MAX_SPLITS = 6
MIN_SEGMENT = 2  # runs; the splitter never proposes a shorter segment
MIN_LEFT = 10  # runs before a change point needed to judge it
BEFORE_RUNS = 20  # the old level: runs since the previous change point, at least 20 …
LEFT_RUNS = 30  # … and at most 30
MIN_RIGHT = 3  # runs at the new level before the test may confirm
PERSIST_RUNS = 4  # the first bad run and the next 3, each worse by the floor
MAX_AGE = 20  # a change point older than this many runs is no longer news


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

    scipy uses the exact null distribution when the new segment is short and nothing ties
    (with 20 old runs, 3 new runs all worse give p = 1/1771), else the tie-corrected normal
    approximation, which is cautious with short segments (quantised series).
    """
    from scipy.stats import mannwhitneyu

    if len(set(before)) == 1 and set(before) == set(after):
        return 1.0
    alternative = "greater" if direction == "lower_is_better" else "less"
    p = float(mannwhitneyu(after, before, alternative=alternative).pvalue)
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


def _merge(values: Sequence[float], cuts: list[int], weakness: Callable[..., float]) -> None:
    """Drop the weakest inner cut while its weakness is ≥ 1 (recomputing its neighbours)."""

    def score(j: int) -> float:
        return weakness(values[cuts[j - 1] : cuts[j]], values[cuts[j] : cuts[j + 1]])

    scores = [score(j) for j in range(1, len(cuts) - 1)]
    while scores:
        weakest = int(np.argmax(scores))
        if scores[weakest] < 1:
            return
        del cuts[weakest + 1], scores[weakest]
        for j in (weakest, weakest + 1):  # the cuts on either side of the merged one
            if 1 <= j < len(cuts) - 1:
                scores[j - 1] = score(j)


def change_points(values: Sequence[float], min_change: float = 0.0) -> list[int]:
    """Start indices of the significant level changes in `values` (oldest first); with
    `min_change`, changes of the median smaller than that fraction are merged away too."""
    if len(values) < 2 * MIN_SEGMENT + 1 or len(set(values)) == 1:
        return []
    cuts = [0, *_proposals(values), len(values)]
    _merge(values, cuts, lambda a, b: _student(a, b) / ALPHA)
    if min_change > 0:

        def small(a: Sequence[float], b: Sequence[float]) -> float:
            before = median(a)
            moved = abs(median(b) - before) / abs(before) if before else math.inf
            return 2 - moved / min_change  # ≥ 1 while the move is below min_change

        _merge(values, cuts, small)
    for j in range(1, len(cuts) - 1):  # place each survivor again between its neighbours
        cuts[j] = cuts[j - 1] + _proposals(values[cuts[j - 1] : cuts[j + 1]], 1)[0]
    return cuts[1:-1]


def _tested(values: Sequence[float], lo: int, c: int, direction: str, floor: float) -> Step | None:
    """The change point at `c` as a step confirmed by the rank test, or None."""
    left, right = values[max(0, min(lo, c - BEFORE_RUNS), c - LEFT_RUNS) : c], values[c:]
    if len(left) < MIN_LEFT or len(right) < MIN_RIGHT:
        return None
    before, after = median(left), median(right)
    change = change_worse(after, before, direction)
    if not change >= floor:
        return None
    p = _mwu(left, right, direction)
    return Step(c, before, after, change, p, "change-point") if p < ALPHA else None


def _persisted(values: Sequence[float], direction: str, floor: float) -> Step | None:
    """The start of the newest values' run of ≥ PERSIST_RUNS values each worse than the
    median of the (up to 30) runs before it by `floor`, unless it began over MAX_AGE ago."""
    n, found = len(values), None
    for c in range(n - PERSIST_RUNS, max(MIN_LEFT, n - MAX_AGE - 1) - 1, -1):
        left, right = values[max(0, c - LEFT_RUNS) : c], values[c:]
        before = median(left)
        if not all(change_worse(x, before, direction) >= floor for x in right):
            break
        after, p = median(right), _mwu(left, right, direction)
        found = Step(c, before, after, change_worse(after, before, direction), p, "persistence")
    return found if found is not None and n - found.index <= MAX_AGE else None


def newest_step(values: Sequence[float], *, direction: str, floor: float) -> Step | None:
    """The newest worsening step of at least `floor` (a fraction) that started ≤ MAX_AGE runs
    before the end of `values` and has held (module docstring), or None."""
    cuts = change_points(values, min_change=floor)
    n = len(values)
    bounds = [0, *cuts, n]
    for j in range(len(bounds) - 2, 0, -1):
        if n - bounds[j] > MAX_AGE:
            break
        step = _tested(values, bounds[j - 1], bounds[j], direction, floor)
        if step is not None:
            return step
    return _persisted(values, direction, floor)
