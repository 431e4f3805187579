"""Pure regression statistics: sample summaries, the signed change, the samples' Welch gate,
and the pairwise verdict of two runs (the compare view).

Nothing here touches the database or HTTP. A series' verdicts and alerts (noise-calibrated
floors, change points, confirmation) are the detector's (`regression.detector`), built on
these pieces.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from statistics import median, quantiles

import numpy as np

HIGHER = "higher_is_better"
LOWER = "lower_is_better"
UNSTABLE_CV = 0.10
ALPHA = 0.05
MIN_SAMPLES_FOR_TEST = 3


class Level(StrEnum):
    """What a verdict says about a measurement."""

    OK = "ok"
    IMPROVED = "improved"
    WARN = "warn"
    FAIL = "fail"
    NOISY = "noisy"
    UNSTABLE = "unstable"
    LEARNING = "learning"  # too few runs (since the start or a restart) to measure the noise
    NO_BASELINE = "no_baseline"


@dataclass(frozen=True)
class SampleStats:
    """Statistics of one measurement's samples after IQR outlier removal."""

    value: float
    n: int
    mean: float
    median: float
    stddev: float
    min: float
    max: float
    cv: float
    outliers_removed: int
    clean: tuple[float, ...]


@dataclass(frozen=True)
class Thresholds:
    """Warn and fail thresholds in percent (warn at ≥ warn, fail above fail)."""

    warn: float = 5.0
    fail: float = 10.0


@dataclass(frozen=True)
class Baseline:
    """The value a new measurement is compared with, and where it came from."""

    value: float
    run_ids: tuple[int, ...]
    samples: tuple[float, ...]
    source: str  # "pinned" | "median"


@dataclass(frozen=True)
class Verdict:
    """The judgement of one measurement."""

    level: Level
    baseline: Baseline | None
    change_pct: float | None
    p_value: float | None
    gate: str | None  # "welch" when the samples decided, else None
    thresholds: Thresholds


def remove_outliers(samples: Sequence[float]) -> tuple[tuple[float, ...], int]:
    """Drop samples outside [Q1 − 1.5·IQR, Q3 + 1.5·IQR]; fewer than 4 samples are kept whole."""
    values = tuple(float(s) for s in samples)
    if len(values) < 4:
        return values, 0
    # Quartiles interpolated linearly between order statistics (numpy's default), in plain
    # Python: a measurement holds a few samples, where numpy's per-call overhead is the cost.
    q1, _, q3 = quantiles(values, n=4, method="inclusive")
    iqr = q3 - q1
    lo, hi = q1 - 1.5 * iqr, q3 + 1.5 * iqr
    kept = tuple(v for v in values if lo <= v <= hi)
    return kept, len(values) - len(kept)


def summarize(samples: Sequence[float], value: float | None = None) -> SampleStats:
    """Summarize samples (value defaults to the median of the cleaned samples)."""
    if not samples:
        if value is None:
            raise ValueError("a measurement needs a value or samples")
        v = float(value)
        return SampleStats(v, 1, v, v, 0.0, v, v, 0.0, 0, ())
    clean, removed = remove_outliers(samples)
    n = len(clean)
    mean = math.fsum(clean) / n
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in clean) / (n - 1)) if n > 1 else 0.0
    med = median(clean)
    cv = sd / abs(mean) if mean != 0 else 0.0
    return SampleStats(
        value=float(value) if value is not None else med,
        n=len(samples),
        mean=mean,
        median=med,
        stddev=sd,
        min=float(min(samples)),
        max=float(max(samples)),
        cv=cv,
        outliers_removed=removed,
        clean=clean,
    )


def change_worse(new: float, base: float, direction: str) -> float:
    """Relative change signed so that positive means worse (fraction, not percent)."""
    if direction not in (HIGHER, LOWER):
        raise ValueError(f"unknown direction {direction!r}")
    if base == 0:
        if new == 0:
            return 0.0
        raw = math.copysign(math.inf, new)
    else:
        raw = (new - base) / abs(base)
    return raw if direction == LOWER else -raw


def welch_p(new: Sequence[float], base: Sequence[float], *, worse_is_larger: bool) -> float:
    """One-sided Welch t-test p-value for "new is worse than base"."""
    a, b = np.asarray(new, dtype=float), np.asarray(base, dtype=float)
    if a.std() == 0 and b.std() == 0:
        diff = a.mean() - b.mean()
        return 0.0 if (diff > 0) == worse_is_larger and diff != 0 else 1.0
    alternative = "greater" if worse_is_larger else "less"
    from scipy import stats as sstats  # lazily: it is most of a cold start's import time

    p = float(sstats.ttest_ind(a, b, equal_var=False, alternative=alternative).pvalue)
    return 1.0 if math.isnan(p) else p


@dataclass(frozen=True)
class Classified:
    """What `classify` says about one measurement against one baseline."""

    level: Level
    change_pct: float | None  # positive = worse; None when the baseline is 0
    p_value: float | None  # the samples' Welch test, when it ran
    welch: bool  # whether the samples decided (≥ 3 on both sides)


def classify(
    current: SampleStats,
    baseline: Baseline,
    direction: str,
    *,
    warn: float,
    fail: float,
    configured_warn: float | None = None,
) -> Classified:
    """The one classification of a measurement against a baseline, for verdicts (with the
    series' effective floors `warn`/`fail`) and the compare view (the configured thresholds).

    Worse by more than `fail`: fail; by at least `warn`: warn; better by at least `warn`:
    improved. With ≥ 3 samples on both sides a one-sided Welch t-test must agree (p < 0.05),
    else noisy. Below the floors but at least `configured_warn` away: noisy. A quiet level
    (ok, noisy) with samples varying more than UNSTABLE_CV becomes unstable.
    """
    change = change_worse(current.value, baseline.value, direction)
    pct = change * 100 if math.isfinite(change) else None
    if change * 100 > fail:
        level = Level.FAIL
    elif change * 100 >= warn:
        level = Level.WARN
    elif -change * 100 >= warn:
        level = Level.IMPROVED
    elif abs(change) * 100 >= (warn if configured_warn is None else configured_warn):
        level = Level.NOISY
    else:
        level = Level.OK
    p: float | None = None
    welch = level in (Level.FAIL, Level.WARN, Level.IMPROVED) and (
        min(len(current.clean), len(baseline.samples)) >= MIN_SAMPLES_FOR_TEST
    )
    if welch:
        worse_is_larger = (direction == LOWER) == (level is not Level.IMPROVED)
        p = welch_p(current.clean, baseline.samples, worse_is_larger=worse_is_larger)
        if p >= ALPHA:
            level = Level.NOISY
    if level in (Level.OK, Level.NOISY) and current.cv > UNSTABLE_CV:
        level = Level.UNSTABLE
    return Classified(level, pct, p, welch)


def judge(
    *,
    current: SampleStats,
    direction: str,
    baseline: Baseline | None,
    thresholds: Thresholds,
) -> Verdict:
    """Classify one measurement against one baseline (two runs compared side by side): the
    verdicts' `classify` with the configured thresholds as the floors."""
    if direction not in (HIGHER, LOWER):
        raise ValueError(f"unknown direction {direction!r}")
    if baseline is None:
        return Verdict(Level.NO_BASELINE, None, None, None, None, thresholds)
    c = classify(current, baseline, direction, warn=thresholds.warn, fail=thresholds.fail)
    gate = "welch" if c.welch else None
    return Verdict(c.level, baseline, c.change_pct, c.p_value, gate, thresholds)
