"""Noise-calibrated floors: how large a change must be, in this series, to mean anything.

The series' noise is its **run-to-run variation**: the 75th percentile of the relative change
between consecutive accepted runs, |x[i] − x[i−1]| / |x[i−1]|, over its newest 30 runs
(pairs that straddle a baseline restart are skipped). The percentile, rather than a standard
deviation, ignores the one large difference a real step adds, and the upper quartile, rather
than the median, still sees a series that hops between two modes (bimodal) in a quarter of
its runs. The series' **resolution** is its smallest non-zero run-to-run difference that
occurs at least twice, as a percentage of the median of those runs: a quantised series (a
coarse timer, say) hops by whole quanta, again and again, and a change must exceed two of
them (RESOLUTION_STEPS = 2.5 quanta, clear of the rounding at exactly two). A difference seen
once is no quantum: it is the one step of a series that was constant (an allocation count
going from 2048 to 2355), which must be judged against the configured thresholds, not hidden
behind a floor it raised itself.

    effective warn = max(configured warn, FLOOR_K × variation, 2.5 × resolution)
    effective fail = max(configured fail, effective warn + configured fail − configured warn)

With FLOOR_K = 2 a series whose typical run-to-run change is 1 % keeps the configured 5 %
and 10 %; one that moves 8 % between runs needs a 16 % change to warn and 21 % to fail.
(The fail floor keeps its configured distance above the warn floor rather than scaling:
a higher-is-better metric cannot get more than 100 % worse.)
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence
from statistics import median, quantiles

from benchdash.regression.engine import Thresholds
from benchdash.regression.model import Floors

VARIATION_RUNS = 30  # newest runs the variation is measured on
MIN_HISTORY = 10  # fewer earlier runs: the noise cannot be measured, nothing is judged
FLOOR_K = 2.0
RESOLUTION_STEPS = 2.5

# Plain Python on purpose: the windows hold at most 30 values, and on arrays that small
# numpy's per-call overhead cost more than the arithmetic (this runs for every series of
# every upload).


def _pairs(values: Sequence[float], breaks: Collection[int]) -> list[tuple[float, float]]:
    """Consecutive (previous, current) values, skipping the pairs that end at a break."""
    return [(values[i - 1], values[i]) for i in range(1, len(values)) if i not in breaks]


def relative_steps(values: Sequence[float], breaks: Collection[int] = ()) -> list[float]:
    """|x[i] − x[i−1]| / |x[i−1]| for consecutive values, skipping i in `breaks` and zeros."""
    return [abs(cur - prev) / abs(prev) for prev, cur in _pairs(values, breaks) if prev != 0]


def _resolution(values: Sequence[float], breaks: Collection[int]) -> float:
    """Smallest non-zero |x[i] − x[i−1]| seen at least twice, in % of the median of `values`
    (0 if none repeats)."""
    diffs = sorted(d for d in (abs(c - p) for p, c in _pairs(values, breaks)) if d > 0)
    level = abs(median(values))
    # Sorted, so the first pair of neighbours equal up to float rounding is the smallest repeat.
    quantum = next((a for a, b in itertools.pairwise(diffs) if b - a <= 1e-9 * b), None)
    return quantum / level * 100 if quantum is not None and level > 0 else 0.0


def floors(values: Sequence[float], thresholds: Thresholds, breaks: Collection[int] = ()) -> Floors:
    """The effective floors for the next run after `values` (oldest first; newest 30 used).

    `breaks` are indices into `values` where a new regime starts (the pair ending there is
    not a run-to-run change). Fewer than MIN_HISTORY runs: variation None, configured floors.
    """
    start = max(0, len(values) - VARIATION_RUNS)
    recent = values[start:]
    steps = relative_steps(recent, {b - start for b in breaks if b > start})
    if len(recent) < MIN_HISTORY or len(steps) == 0:
        return Floors(thresholds, None, len(recent), thresholds.warn, thresholds.fail)
    # The upper quartile, interpolated linearly between order statistics (numpy's default).
    upper = quantiles(steps, n=4, method="inclusive")[2] if len(steps) > 1 else steps[0]
    variation = upper * 100
    resolution = _resolution(recent, {b - start for b in breaks if b > start})
    warn = max(thresholds.warn, FLOOR_K * variation, RESOLUTION_STEPS * resolution)
    fail = max(thresholds.fail, warn + thresholds.fail - thresholds.warn)
    return Floors(thresholds, variation, len(recent), warn, fail, resolution)
