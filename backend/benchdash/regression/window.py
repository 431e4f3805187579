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

Windows go up to 25 runs, so a smaller shift is found later rather than never. The first
window that passes names its first run as the suspected first bad run. The constants
are first choices, not yet tuned on the eval-dev tune half (see docs/detector.md when present).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.stats import mannwhitneyu

WINDOWS = (5, 8, 12, 15, 20, 25)
BASELINE = 30
MIN_BASELINE = 30
ALPHA = 1e-4
MIN_EFFECT = 0.03
HISTORY = 90  # how far back the bimodal guard looks


@dataclass(frozen=True)
class WindowShift:
    """A sustained shift of the newest `runs` runs; `first` indexes into the values given."""

    first: int
    runs: int
    change: float  # relative, positive = worse (Hodges-Lehmann, back from the log scale)
    noise: float  # relative run-to-run spread of the baseline (scaled MAD)
    p_value: float

    def text(self) -> str:
        return (
            f"Suspected from {self.runs} runs in a row ~{self.change * 100:.0f} % slower "
            f"(noise {self.noise * 100:.0f} % per run)"
        )


def _signed_logs(values: Sequence[float], worse_is_higher: bool) -> np.ndarray | None:
    arr = np.asarray(values, dtype=float)
    if arr.size == 0 or not np.all(np.isfinite(arr)) or np.any(arr <= 0):
        return None
    logs: np.ndarray = np.log(arr)
    return logs if worse_is_higher else -logs


def window_shift(values: Sequence[float], worse_is_higher: bool = True) -> WindowShift | None:
    """The smallest newest window shifted toward worse against the runs before it, or None."""
    logs = _signed_logs(values, worse_is_higher)
    if logs is None:
        return None
    alpha = ALPHA / len(WINDOWS)
    for w in WINDOWS:
        if logs.size < w + MIN_BASELINE:
            break
        new = logs[-w:]
        base = logs[-w - BASELINE : -w]
        hit = _test(new, base, logs[max(0, logs.size - w - HISTORY) : -w], alpha)
        if hit is not None:
            shift, p = hit
            mad = float(np.median(np.abs(base - np.median(base)))) * 1.4826
            return WindowShift(
                first=logs.size - w,
                runs=w,
                change=math.expm1(shift),
                noise=math.expm1(mad),
                p_value=p,
            )
    return None


def _test(
    new: np.ndarray, base: np.ndarray, history: np.ndarray, alpha: float
) -> tuple[float, float] | None:
    shift = float(np.median(np.subtract.outer(new, base)))
    if shift < math.log1p(MIN_EFFECT):
        return None
    base_median = float(np.median(base))
    if history.size >= new.size:
        held = np.median(np.lib.stride_tricks.sliding_window_view(history, new.size), axis=1)
        if float(np.median(new)) <= float(np.max(held)) + math.log1p(MIN_EFFECT):
            return None
    half = new.size // 2
    for part in (new[:half], new[half:]):
        if float(np.median(part)) - base_median < shift / 2:
            return None
    p = float(mannwhitneyu(new, base, alternative="greater").pvalue)
    if p >= alpha:
        return None
    return shift, p
