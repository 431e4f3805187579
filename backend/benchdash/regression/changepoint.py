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
runs ago, with at least MIN_HISTORY (10) runs before it, confirmed in one of two ways:

- change point: the new level (median of the runs from the change point to the newest) is
  worse than the old (median of the runs since the previous change point, at least the 20
  and at most the 30 before it) by the floor, at least HELD = 80 % of the new runs are each
  worse than the old level by half the floor (a burst of spikes is not a new level), and a
  one-sided Mann-Whitney U test of the new runs against the old gives p < ALPHA (with 20 old
  runs, 3 new runs all worse suffice);
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
from benchdash.regression.floors import MIN_HISTORY  # runs before a change point needed

ALPHA = 0.001
KERNEL = "linear"
MAX_SPLITS = 6
MIN_SEGMENT = 2  # runs; the splitter never proposes a shorter segment
BEFORE_RUNS = 20  # the old level: runs since the previous change point, at least 20 …
LEFT_RUNS = 30  # … and at most 30
MIN_RIGHT = 3  # runs at the new level before the test may confirm
PERSIST_RUNS = 4  # the first bad run and the next 3, each worse by the floor
MAX_AGE = 20  # a change point older than this many runs is no longer news
HELD = 0.8  # share of the runs since a change point worse by at least half the floor


@dataclass(frozen=True)
class Step:
    """A confirmed worsening step in a window of values."""

    index: int  # first run at the new level
    level_before: float  # median of the runs before it
    level_after: float  # median of the runs since
    change: float  # fraction, positive = worse
    p_value: float
    by: str  # "change-point" | "persistence"
    before: tuple[float, ...] = ()  # the runs the old level was measured on
    after: tuple[float, ...] = ()  # the runs since the step


def mwu(before: Sequence[float], after: Sequence[float], direction: str) -> float:
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


class _Moments:
    """Prefix sums of a series (shifted by its mean, for accuracy): any segment's mean and
    variance in O(1), so the merge step's many t-tests cost almost nothing."""

    def __init__(self, values: Sequence[float]) -> None:
        shift = sum(values) / len(values) if values else 0.0
        self.s1, self.s2 = [0.0], [0.0]
        for x in values:
            d = x - shift
            self.s1.append(self.s1[-1] + d)
            self.s2.append(self.s2[-1] + d * d)

    def mean_var(self, lo: int, hi: int) -> tuple[float, float]:
        """Mean (shifted) and sample variance of values[lo:hi] (hi - lo ≥ 2)."""
        n = hi - lo
        s1, s2 = self.s1[hi] - self.s1[lo], self.s2[hi] - self.s2[lo]
        return s1 / n, max(s2 - s1 * s1 / n, 0.0) / (n - 1)


def _student(m: _Moments, lo: int, mid: int, hi: int) -> float:
    """Two-sided Student t-test p-value of values[lo:mid] against values[mid:hi] (1.0 when it
    is undefined): the pooled-variance statistic, the p-value from Student's t distribution
    (`scipy.special.stdtr`), the figure of `scipy.stats.ttest_ind(equal_var=True)`."""
    from scipy.special import stdtr

    na, nb = mid - lo, hi - mid
    if na < 2 or nb < 2:
        return 1.0
    (ma, va), (mb, vb) = m.mean_var(lo, mid), m.mean_var(mid, hi)
    if va <= 1e-300 and vb <= 1e-300:
        return 0.0 if abs(ma - mb) > 1e-12 * (abs(ma) + abs(mb) + 1e-300) else 1.0
    df = na + nb - 2
    se = math.sqrt(((na - 1) * va + (nb - 1) * vb) / df * (1 / na + 1 / nb))
    p = 2 * float(stdtr(df, -abs(ma - mb) / se))
    return 1.0 if math.isnan(p) else min(p, 1.0)


def _merge(cuts: list[int], weakness: Callable[[int, int, int], float]) -> None:
    """Drop the weakest inner cut while its weakness is ≥ 1 (recomputing its neighbours);
    `weakness(lo, mid, hi)` judges the split of values[lo:hi] at mid."""

    def score(j: int) -> float:
        return weakness(cuts[j - 1], cuts[j], cuts[j + 1])

    scores = [score(j) for j in range(1, len(cuts) - 1)]
    while scores:
        weakest = max(range(len(scores)), key=scores.__getitem__)  # first of the largest
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
    moments = _Moments(values)
    _merge(cuts, lambda lo, mid, hi: _student(moments, lo, mid, hi) / ALPHA)
    if min_change > 0:

        def small(lo: int, mid: int, hi: int) -> float:
            before = median(values[lo:mid])
            after = median(values[mid:hi])
            moved = abs(after - before) / abs(before) if before else math.inf
            return 2 - moved / min_change  # ≥ 1 while the move is below min_change

        _merge(cuts, small)
    for j in range(1, len(cuts) - 1):  # place each survivor again between its neighbours
        cuts[j] = cuts[j - 1] + _proposals(values[cuts[j - 1] : cuts[j + 1]], 1)[0]
    return cuts[1:-1]


def _tested(values: Sequence[float], lo: int, c: int, direction: str, floor: float) -> Step | None:
    """The change point at `c` as a step confirmed by the rank test, or None."""
    left, right = values[max(0, min(lo, c - BEFORE_RUNS), c - LEFT_RUNS) : c], values[c:]
    if len(left) < MIN_HISTORY or len(right) < MIN_RIGHT:
        return None
    before, after = median(left), median(right)
    change = change_worse(after, before, direction)
    if not change >= floor:
        return None
    held = sum(change_worse(x, before, direction) >= floor / 2 for x in right)
    if held < HELD * len(right):  # a burst of spikes, not a new level
        return None
    p = mwu(left, right, direction)
    if p >= ALPHA:
        return None
    return Step(c, before, after, change, p, "change-point", tuple(left), tuple(right))


def _persisted(values: Sequence[float], direction: str, floor: float) -> Step | None:
    """The start of the newest values' run of ≥ PERSIST_RUNS values each worse than the
    median of the (up to 30) runs before it by `floor`, unless it began over MAX_AGE ago."""
    n, found = len(values), None
    for c in range(n - PERSIST_RUNS, max(MIN_HISTORY, n - MAX_AGE - 1) - 1, -1):
        left, right = values[max(0, c - LEFT_RUNS) : c], values[c:]
        before = median(left)
        if not all(change_worse(x, before, direction) >= floor for x in right):
            break
        after, p = median(right), mwu(left, right, direction)
        change = change_worse(after, before, direction)
        found = Step(c, before, after, change, p, "persistence", tuple(left), tuple(right))
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
