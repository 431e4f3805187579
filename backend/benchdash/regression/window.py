"""Windowed shift test: the second way in for steps on noisy series (issue 44).

A single-run floor never looks at a shift smaller than a few single-run deviations, however
long it lasts. Here the newest `w` runs (w in WINDOWS, smallest first) are tested together
against the BASELINE runs before them, on the log scale signed so that positive is worse:

- rank test: one-sided Mann-Whitney U, p < ALPHA (divided by the number of windows tried);
- size: the Hodges-Lehmann shift (median of all window-minus-baseline differences) must be at
  least MIN_EFFECT;
- bimodal guard: the window's median must be worse by MIN_EFFECT than the median of every
  stretch of as many runs among the (up to HISTORY) runs before it: a level the series has
  held before (its other mode, a slow runner pool for a while) is not new, so a series that
  switches between its own modes opens nothing. Smaller windows thus need larger shifts;
- persistence: both halves of the window are each worse than the baseline median by half the
  Hodges-Lehmann shift, so a burst at one end of the window is not a new level.

Windows go up to 25 runs, so a smaller shift is found later rather than never. In the first
window that passes, `locate` places the first bad run: the rank change point of that window
and the BASELINE runs before it. The detector (`detector._windowed`) asks this only of
noisy series (noise raised the warn floor above the configured threshold), with the configured
warn threshold as the least shift, on the runs since the last break; its decisions read 72
runs, so HISTORY + the largest window fits in them. The constants were chosen on the eval-dev
tune half only (`bench/window_tune.py`: ALPHA 1e-4 was the loosest that kept the tune half's
alert events at 0.30 per 100 runs; a 90-run guard, reading 115 runs, found no more).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median

import numpy as np

WINDOWS = (5, 8, 12, 15, 20, 25)
BASELINE = 30
MIN_BASELINE = 30
ALPHA = 1e-4
MIN_EFFECT = 0.03
HISTORY = 47  # how far back the bimodal guard looks: 25 + 47 = the 72 runs a decision reads
MIN_LEFT = 10  # runs before a located first bad run, at least …
MIN_RIGHT = 3  # … and after it


@dataclass(frozen=True)
class WindowShift:
    """A sustained shift of the newest `runs` runs; `first` indexes into the values given."""

    first: int
    runs: int
    change: float  # relative, positive = worse (Hodges-Lehmann, back from the log scale)
    noise: float  # relative run-to-run spread of the baseline (scaled MAD)
    p_value: float

    def text(self, worse: str = "slower") -> str:
        """'Suspected from 8 runs in a row ~19 % slower (noise 22 % per run)'."""
        return (
            f"Suspected from {self.runs} runs in a row ~{self.change * 100:.0f} % {worse} "
            f"(noise {self.noise * 100:.0f} % per run)"
        )


def _signed_logs(values: Sequence[float], worse_is_higher: bool) -> np.ndarray | None:
    arr = np.asarray(values, dtype=float)
    if arr.size == 0 or not np.all(np.isfinite(arr)) or np.any(arr <= 0):
        return None
    logs: np.ndarray = np.log(arr)
    return logs if worse_is_higher else -logs


def window_shift(
    values: Sequence[float], worse_is_higher: bool = True, min_effect: float = MIN_EFFECT
) -> WindowShift | None:
    """The smallest newest window shifted toward worse against the runs before it, or None;
    its first bad run is placed by `locate` (a shift need not start at a window's edge)."""
    logs = _signed_logs(values, worse_is_higher)
    if logs is None:
        return None
    alpha = ALPHA / max(1, len(WINDOWS))
    least = math.log1p(min_effect)
    for w in WINDOWS:
        if logs.size < w + MIN_BASELINE:
            break
        new = logs[-w:]
        base = logs[-w - BASELINE : -w]
        hit = _test(new, base, logs[max(0, logs.size - w - HISTORY) : -w], alpha, least)
        if hit is not None:
            lo = logs.size - w - BASELINE
            first = lo + locate(logs[lo:])
            before, after = logs[max(0, first - BASELINE) : first], logs[first:]
            shift = float(np.median(np.subtract.outer(after, before)))
            if shift < least:  # the split found no shift of its own: name the window's start
                first, before, after, shift = logs.size - w, base, new, hit[0]
            mad = float(np.median(np.abs(before - np.median(before)))) * 1.4826
            return WindowShift(
                first=first,
                runs=logs.size - first,
                change=math.expm1(shift),
                noise=math.expm1(mad),
                p_value=hit[1],
            )
    return None


def locate(logs: np.ndarray) -> int:
    """Where `logs` most likely steps up: the split whose later part's rank sum is largest
    in standard units (a rank change point, robust to spikes), with at least MIN_LEFT runs
    before it and MIN_RIGHT after."""
    n = logs.size
    ranks = np.argsort(np.argsort(logs, kind="stable"), kind="stable") + 1.0
    right = np.cumsum(ranks[::-1])[::-1]  # right[c]: rank sum of logs[c:]
    best, where = -math.inf, n - MIN_RIGHT
    for c in range(MIN_LEFT, n - MIN_RIGHT + 1):
        m = n - c
        z = (right[c] - m * (n + 1) / 2) / math.sqrt(m * (n - m) * (n + 1) / 12)
        if z > best:
            best, where = z, c
    return where


def _median(a: np.ndarray) -> float:
    """np.median's value for a short array, without its per-call overhead (this runs for
    every window of every noisy series' upload)."""
    return float(median(a.tolist()))


def _test(
    new: np.ndarray, base: np.ndarray, history: np.ndarray, alpha: float, least: float
) -> tuple[float, float] | None:
    base_median = _median(base)
    half = new.size // 2
    parts = (_median(new[:half]), _median(new[half:]))
    if min(parts) - base_median < least / 2:  # implied by the halves' test (shift ≥ least):
        return None  # first, as it is cheap
    shift = float(np.median(np.subtract.outer(new, base)))
    if shift < least:
        return None
    if history.size >= new.size:
        held = np.median(np.lib.stride_tricks.sliding_window_view(history, new.size), axis=1)
        if _median(new) <= float(np.max(held)) + least:
            return None
    if min(parts) - base_median < shift / 2:
        return None
    from scipy.stats import mannwhitneyu  # lazily: most of a cold start's import time

    p = float(mannwhitneyu(new, base, alternative="greater").pvalue)
    if p >= alpha:
        return None
    return shift, p
