"""Noise-calibrated floors: how large a change must be, in this series, to mean anything.

The series' noise is its **run-to-run variation**: the 75th percentile of the relative change
between consecutive accepted runs, |x[i] − x[i−1]| / |x[i−1]|, over its newest 30 runs
(pairs that straddle a baseline restart are skipped). The percentile, rather than a standard
deviation, ignores the one large difference a real step adds, and the upper quartile, rather
than the median, still sees a series that hops between two modes (bimodal) in a quarter of
its runs. The series' **resolution** is its smallest non-zero run-to-run difference, as a
percentage of the median of those runs: a quantised series (a coarse timer, say) hops by
whole quanta, and a change must exceed two of them (RESOLUTION_STEPS = 2.5 quanta, clear of
the rounding at exactly two).

    effective warn = max(configured warn, FLOOR_K × variation, 2.5 × resolution)
    effective fail = max(configured fail, effective warn + configured fail − configured warn)

With FLOOR_K = 2 a series whose typical run-to-run change is 1 % keeps the configured 5 %
and 10 %; one that moves 8 % between runs needs a 16 % change to warn and 21 % to fail.
(The fail floor keeps its configured distance above the warn floor rather than scaling:
a higher-is-better metric cannot get more than 100 % worse.)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np

from benchdash.regression.engine import Thresholds
from benchdash.regression.model import Floors

VARIATION_RUNS = 30  # newest runs the variation is measured on
MIN_HISTORY = 10  # fewer earlier runs: the noise cannot be measured, nothing is judged
FLOOR_K = 2.0
QUANTILE = 0.75
RESOLUTION_STEPS = 2.5


def relative_steps(values: Sequence[float], breaks: Collection[int] = ()) -> np.ndarray:
    """|x[i] − x[i−1]| / |x[i−1]| for consecutive values, skipping i in `breaks` and zeros."""
    arr = np.asarray(values, dtype=float)
    if len(arr) < 2:
        return np.empty(0)
    prev, cur = arr[:-1], arr[1:]
    keep = prev != 0
    if breaks:
        keep &= ~np.isin(np.arange(1, len(arr)), list(breaks))
    steps: np.ndarray = np.abs(cur[keep] - prev[keep]) / np.abs(prev[keep])
    return steps


def _resolution(values: Sequence[float], breaks: Collection[int]) -> float:
    """Smallest non-zero |x[i] − x[i−1]| in % of the median of `values` (0 if none)."""
    arr = np.asarray(values, dtype=float)
    diffs = np.abs(np.diff(arr))
    if breaks:
        diffs = diffs[~np.isin(np.arange(1, len(arr)), list(breaks))]
    nonzero = diffs[diffs > 0]
    level = abs(float(np.median(arr)))
    return float(nonzero.min()) / level * 100 if len(nonzero) and level > 0 else 0.0


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
    variation = float(np.quantile(steps, QUANTILE)) * 100
    resolution = _resolution(recent, {b - start for b in breaks if b > start})
    warn = max(thresholds.warn, FLOOR_K * variation, RESOLUTION_STEPS * resolution)
    fail = max(thresholds.fail, warn + thresholds.fail - thresholds.warn)
    return Floors(thresholds, variation, len(recent), warn, fail, resolution)
