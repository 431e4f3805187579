"""Stage two of `detector.assess`: the alert decisions for a step, a drift, a recovery.

- **step**: `changepoint.newest_step` over the window (at most STEP_HISTORY earlier runs
  since the last break), graded by its estimated size (`grade.py`). During warm-up — fewer
  than BEFORE_RUNS runs before the step, i.e. the first runs the detector judges — only
  strong evidence opens: a step of at least WARMUP_K × the effective warn floor.
- **window step**: a shift of the newest runs together (`window.py`, noisy series), named
  and graded as a step; its first bad run is the rank change point of the window.
- **drift**: `drift.drift` over the whole window since the last break (so a confirmed step
  is never counted again), when no drift alert is open (a steady trend is reported once).
- **regrade**: an open step alert is graded again as runs arrive after its step (its size
  from every run since, against the runs before it), and moves warn → fail when the step is
  surely past warn and its size past fail, fail → warn only once it is surely under fail.
- **resolves**: a step alert resolves once the median of the last RECOVERY_RUNS runs is
  back within its warn floor of the level before the step; a drift alert once the median
  of the newest LEVEL_RUNS is back within DRIFT_BACK × its warn threshold of the reference
  level (hysteresis: a level hovering at the threshold is not re-alerted again and again).
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import median

from benchdash.regression import changepoint
from benchdash.regression import drift as drift_check
from benchdash.regression.engine import Level, Thresholds, change_worse
from benchdash.regression.grade import grade, step_size
from benchdash.regression.model import (
    Action,
    AlertDecision,
    AlertKind,
    Contributor,
    Floors,
    OpenAlert,
    Point,
    Stage,
)
from benchdash.regression.window import WindowShift

RECOVERY_RUNS = 3
REGRADE_BEFORE = 3  # runs before a step needed to grade it again …
REGRADE_MOVE = 1.0  # … and a size that moved by this many points (%) or a new level to say so
WARMUP_K = 2.0  # during warm-up a step must be this many warn floors large
DRIFT_BACK = 0.5  # a drift alert resolves within this share of its warn threshold


def step(
    window: Sequence[Point], lo: int, direction: str, fl: Floors, alert: OpenAlert | None
) -> AlertDecision | None:
    """OPEN for the newest confirmed step in window[lo:], or None."""
    values = [p.value for p in window[lo:]]
    found = changepoint.newest_step(values, direction=direction, floor=fl.warn / 100)
    if found is None:
        return None
    if len(found.before) < changepoint.BEFORE_RUNS and found.change * 100 < WARMUP_K * fl.warn:
        return None  # warm-up: not strong enough yet
    if drift_check.trend_like(values, found.index):  # a steady trend: a drift, reported once
        if alert is not None and alert.kind == AlertKind.DRIFT:
            return None
        span = len(values) - drift_check.LEVEL_RUNS
        return drift(window, lo, direction, fl.configured, alert, span=span)
    return _opened(window, lo + found.index, found, fl.warn, fl.configured, alert, direction)


def window_step(
    window: Sequence[Point],
    lo: int,
    shift: WindowShift,
    direction: str,
    fl: Floors,
    alert: OpenAlert | None,
) -> AlertDecision | None:
    """OPEN for the shift of the newest runs that `window.window_shift` found in window[lo:]
    (its first bad run lo + shift.first), graded and named as a change point's step is; a
    window a straight line fits as well is a drift, as in `step`. Its warn floor is the
    configured warn threshold: the size the window test requires, so the step resolves once
    the series is back within it."""
    values = [p.value for p in window[lo:]]
    if drift_check.trend_like(values, shift.first):
        if alert is not None and alert.kind == AlertKind.DRIFT:
            return None
        span = len(values) - drift_check.LEVEL_RUNS
        return drift(window, lo, direction, fl.configured, alert, span=span)
    c = shift.first
    before = tuple(values[max(0, c - changepoint.LEFT_RUNS) : c])
    after = tuple(values[c:])
    level_before, level_after = median(before), median(after)
    found = changepoint.Step(
        index=c,
        level_before=level_before,
        level_after=level_after,
        change=change_worse(level_after, level_before, direction),
        p_value=shift.p_value,
        by="window",
        before=before,
        after=after,
    )
    return _opened(window, lo + c, found, fl.configured.warn, fl.configured, alert, direction)


def _opened(
    window: Sequence[Point],
    i: int,
    found: changepoint.Step,
    warn_floor: float,
    thresholds: Thresholds,
    alert: OpenAlert | None,
    direction: str,
) -> AlertDecision:
    """The OPEN decision of a step whose first bad run is window[i], graded by its size."""
    size = step_size(found.before, found.after, direction=direction)
    bad, good = window[i], window[i - 1]
    return AlertDecision(
        action=Action.OPEN,
        level=grade(size, thresholds),
        first_bad_index=i,
        first_bad_run_id=bad.run_id,
        first_bad_commit=bad.commit,
        last_good_run_id=good.run_id,
        last_good_commit=good.commit,
        baseline_value=found.level_before,
        change_pct=found.change * 100,
        change_low=size.low,
        change_high=size.high,
        p_value=found.p_value,
        warn_floor=warn_floor,
        confirmed_by=found.by,
        supersedes=alert is not None,
    )


def drift(
    window: Sequence[Point],
    start: int,
    direction: str,
    thresholds: Thresholds,
    alert: OpenAlert | None,
    span: int | None = None,
) -> AlertDecision | None:
    """OPEN a drift alert for window[start:], or None (`span`: as `drift.drift`'s)."""
    values = [p.value for p in window[start:]]
    found = drift_check.drift(values, direction=direction, thresholds=thresholds, span=span)
    if found is None:
        return None
    i = start + found.start
    first, last_good = window[i], window[i - 1]
    named = tuple(
        Contributor(window[start + j].run_id, window[start + j].commit, c * 100)
        for j, c in found.contributors
    )
    return AlertDecision(
        action=Action.OPEN,
        level=found.level,
        first_bad_index=i,
        first_bad_run_id=first.run_id,
        first_bad_commit=first.commit,
        last_good_run_id=last_good.run_id,
        last_good_commit=last_good.commit,
        baseline_value=found.reference,
        change_pct=found.change * 100,
        p_value=found.p_value,
        warn_floor=thresholds.warn,
        confirmed_by="drift",
        supersedes=alert is not None,
        kind=AlertKind.DRIFT,
        window_runs=len(window) - i + 1,
        contributors=named,
    )


def regrade(
    window: Sequence[Point], alert: OpenAlert, direction: str, thresholds: Thresholds
) -> AlertDecision | None:
    """An open step alert graded again on every run since its step (against the runs before
    it, back to the previous break): KEEP with the new level and size when either moved, else
    None. It fails once the step is surely past warn and its size past fail (`grade`), and
    goes back to warn only once the step is surely under fail (its interval's upper end)."""
    ids = [p.run_id for p in window]
    if alert.kind != AlertKind.STEP or alert.level is None or alert.first_bad_run_id not in ids:
        return None
    i = ids.index(alert.first_bad_run_id)
    breaks = [j for j in range(i) if window[j].restart or window[j].stage is Stage.CONFIRMED]
    lo = max([i - changepoint.LEFT_RUNS, *breaks, 0])
    before = [p.value for p in window[lo:i]]
    after = [p.value for p in window[i:]]
    if len(before) < REGRADE_BEFORE or len(after) < RECOVERY_RUNS:
        return None
    size = step_size(before, after, direction=direction)
    level = grade(size, thresholds)
    if alert.level == Level.FAIL and size.high >= thresholds.fail:
        level = Level.FAIL  # hysteresis: a step hovering at the fail threshold keeps failing
    moved = alert.change_pct is None or abs(size.estimate - alert.change_pct) >= REGRADE_MOVE
    if level == alert.level and not moved:
        return None
    return AlertDecision(
        action=Action.KEEP,
        level=level,
        first_bad_run_id=alert.first_bad_run_id,
        change_pct=size.estimate,
        change_low=size.low,
        change_high=size.high,
        graded_runs=len(after),
    )


def resolves(window: Sequence[Point], alert: OpenAlert, direction: str) -> bool:
    """Whether the series is back at the level before the alert's step (or drift)."""
    ids = [p.run_id for p in window]
    first = ids.index(alert.first_bad_run_id) if alert.first_bad_run_id in ids else 0
    need = drift_check.LEVEL_RUNS if alert.kind == AlertKind.DRIFT else RECOVERY_RUNS
    recent = [p.value for p in window[first:][-need:]]
    if len(recent) < need:
        return False
    back = alert.warn_floor * (DRIFT_BACK if alert.kind == AlertKind.DRIFT else 1.0)
    return change_worse(median(recent), alert.baseline_value, direction) * 100 < back
