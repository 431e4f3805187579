"""Two-stage regression detection for one series: per-upload suspicion, then confirmed alerts.

The ingest and `benchdash-server replay` both call this module (no database import).
**Input** (per series): `history`, the series' accepted points before the new one, oldest
first — at most HISTORY_NEEDED (71: the drift check's horizon) are read, so query the
newest 71 — each a `Point(run_id,
value, commit, samples, stage, restart)` where `stage` is what was stored for it earlier
(SUSPECTED, CONFIRMED = an alert named it as a step's first bad run, DISMISSED) and
`restart` marks an accepted distribution change; the `new` point; the series' `alert` that
is not resolved (`OpenAlert`), if any; the pinned baseline point, if any; the configured
`Thresholds`; and the `Mode` (CI-fed or runner-executed).

**Stage one**, `verdict`: the new value against the median of the current level (the runs
since the last change point, restart or confirmed step, newest 30); warn/fail when worse by
at least the effective floors of `floors.py`, then **suspected**. Fewer than 10 earlier runs
(or fewer than 3 since a restart): nothing is judged, `gate="history-too-short"` and `reason`
says why.

A CI-fed series whose noise raised its warn floor is also **suspected** when its newest runs
are shifted together toward worse by at least the configured warn threshold (`window.py`,
`gate="window"`, the verdict's `window` says how many runs, how large, what noise): a step
that single runs never show. Stage two opens it at once, named at the window's rank change
point and graded as any step (`confirmed_by="window"`).

**Stage two**, `decision` (`alerting.py`): CI-fed series (`Mode.CI`) open an alert when
`changepoint.py` finds a step of at least the effective warn floor that has held — by a
significant change point or by the first bad run and the next 3 all staying worse — naming
the step's first bad run and the last good one, graded warn/fail by its estimated size with
a confidence interval against the configured thresholds (`grade.py`). In warm-up (fewer than
20 runs before the step) only a step of 2 warn floors opens. A "step" a straight line fits as
well is a steady trend: a drift. In both modes `drift.py` compares the current level with
the level 60 runs back and opens a **drift** alert (kind "drift", naming its window and the
runs that worsened it most) past the configured thresholds; while one is open no other drift
opens. Runner-executed series (`Mode.RUNNER`) never open a step here: the caller queues
re-runs of a suspected point and calls `confirm.confirm_reruns`. An open step alert resolves
once the median of the last 3 runs is back within its warn floor of the level before the
step, a drift alert once its newest 10 runs are back within half its warn threshold; until
then a step alert is graded again on the runs since its step (KEEP with a level and size).
One alert per step: store `Stage.CONFIRMED` on a step's first bad run (never for a drift);
the baseline then restarts there. Example::

    from benchdash.regression import detector
    from benchdash.regression.engine import Thresholds
    from benchdash.regression.model import Point
    past = [Point(i, 100.0 + i % 3, f"c{i}") for i in range(30)]
    a = detector.assess(past, Point(30, 113.0, "c30"), direction="lower_is_better",
                        thresholds=Thresholds(5, 10))
    a.verdict.suspected, a.verdict.floors.warn    # True, 5.0 (noise ~2 %)
    a.decision.action                              # Action.NONE: one run is not a shift
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from statistics import median

from benchdash.regression import alerting, changepoint
from benchdash.regression import drift as drift_check
from benchdash.regression import window as windowed
from benchdash.regression.engine import (
    HIGHER,
    LOWER,
    Baseline,
    Level,
    Thresholds,
    change_worse,
    classify,
    summarize,
)
from benchdash.regression.floors import MIN_HISTORY, VARIATION_RUNS, floors
from benchdash.regression.model import (
    Action,
    AlertDecision,
    AlertKind,
    Assessment,
    Floors,
    Mode,
    OpenAlert,
    Point,
    Stage,
    UploadVerdict,
)

# Earlier points one decision reads: the step search reads a change point up to MAX_AGE
# (+ 1, to know it is old news) runs back with LEFT_RUNS before it; the floors read the
# newest VARIATION_RUNS; the drift check its horizon (test_history_needed).
STEP_HISTORY = changepoint.LEFT_RUNS + changepoint.MAX_AGE
HISTORY_NEEDED = max(STEP_HISTORY, VARIATION_RUNS, drift_check.HISTORY)
BASELINE_MIN = 3  # runs at the current level needed for a baseline


def _breaks(pts: Sequence[Point], alert: OpenAlert | None) -> list[int]:
    named = alert.first_bad_run_id if alert and alert.kind == "step" else None
    return [
        i
        for i, p in enumerate(pts)
        if p.restart or p.stage is Stage.CONFIRMED or (named is not None and p.run_id == named)
    ]


def _too_short(
    pts: Sequence[Point], new: Point, direction: str, fl: Floors, reason: str
) -> UploadVerdict:
    if not pts:
        return UploadVerdict(Level.NO_BASELINE, False, None, None, None, None, None, fl, reason)
    vals = [p.value for p in pts[-5:]]
    base = Baseline(median(vals), tuple(p.run_id for p in pts[-5:]), (), "median")
    change = change_worse(new.value, base.value, direction)
    pct = change * 100 if math.isfinite(change) else None
    # Learning, whatever the change: the series' noise is not known yet (never "noisy").
    return UploadVerdict(
        Level.LEARNING, False, base, pct, None, None, "history-too-short", fl, reason
    )


def _verdict(
    pts: Sequence[Point], start: int, new: Point, direction: str, fl: Floors, pinned: Point | None
) -> UploadVerdict:
    if len(pts) < MIN_HISTORY:
        reason = f"{len(pts)} of the {MIN_HISTORY} runs needed to measure the noise"
        return _too_short(pts, new, direction, fl, reason)
    if new.restart:
        return _too_short(pts, new, direction, fl, "this run restarts the baseline")
    regime = pts[max(start, len(pts) - STEP_HISTORY) :]
    cuts = changepoint.change_points([p.value for p in regime])
    level_start = max([0, *(c for c in cuts if len(regime) - c >= BASELINE_MIN)])
    base_pts = regime[level_start:][-changepoint.LEFT_RUNS :]
    if pinned is not None:
        baseline = Baseline(pinned.value, (pinned.run_id,), pinned.samples, "pinned")
    elif len(base_pts) < BASELINE_MIN:
        reason = (
            f"the baseline restarted at run #{regime[0].run_id} (a confirmed step or an "
            f"accepted change); {BASELINE_MIN} runs at the new level are needed"
        )
        return _too_short(pts, new, direction, fl, reason)
    else:
        baseline = Baseline(
            median(p.value for p in base_pts),
            tuple(p.run_id for p in base_pts),
            tuple(s for p in base_pts for s in p.samples),
            "median",
        )
    return _classify(new, baseline, direction, fl)


def _classify(new: Point, baseline: Baseline, direction: str, fl: Floors) -> UploadVerdict:
    current = summarize(new.samples, new.value)
    c = classify(
        current, baseline, direction, warn=fl.warn, fail=fl.fail, configured_warn=fl.configured.warn
    )
    z = c.change_pct / fl.variation if c.change_pct is not None and fl.variation else None
    gate = "floor+welch" if c.welch else "floor"
    suspected = c.level in (Level.WARN, Level.FAIL)
    return UploadVerdict(c.level, suspected, baseline, c.change_pct, c.p_value, z, gate, fl)


def _windowed(
    level: Sequence[Point], new: Point, direction: str, fl: Floors, verdict: UploadVerdict
) -> UploadVerdict:
    """The verdict, suspected also when the newest runs of a noisy series (one whose noise
    raised the warn floor above the configured threshold) are shifted together toward worse
    by at least the configured warn threshold (`window.window_shift`, on the runs since the
    last break). Quiet series keep the single-run verdict alone."""
    if verdict.gate == "history-too-short" or fl.warn <= fl.configured.warn:
        return verdict
    values = [p.value for p in level] + [new.value]
    shift = windowed.window_shift(values, direction == LOWER, fl.configured.warn / 100)
    if shift is None:
        return verdict
    level_now = verdict.level if verdict.suspected else Level.WARN
    return replace(verdict, level=level_now, suspected=True, gate="window", window=shift)


def _decide(
    window: Sequence[Point],
    start: int,
    direction: str,
    fl: Floors,
    alert: OpenAlert | None,
    mode: Mode,
    verdict: UploadVerdict,
) -> AlertDecision:
    # A step is confirmed where uploads were suspected: without a suspected run among the
    # newest MAX_AGE (the new one included) there is nothing to confirm, and the change-point
    # search (the detector's costly part) is skipped.
    recent = window[max(start, len(window) - 1 - changepoint.MAX_AGE) : -1]
    if mode is Mode.CI and (verdict.suspected or any(p.stage is Stage.SUSPECTED for p in recent)):
        lo = max(start, len(window) - 1 - STEP_HISTORY)
        found = alerting.step(window, lo, direction, fl, alert)
        if found is None and verdict.window is not None:
            found = alerting.window_step(window, start, verdict.window, direction, fl, alert)
        if found is not None:
            return found
    if alert is None or alert.kind != AlertKind.DRIFT:
        found = alerting.drift(window, start, direction, fl.configured, alert)
        if found is not None:
            return found
    if alert is None:
        return AlertDecision(Action.NONE)
    if alerting.resolves(window, alert, direction):
        return AlertDecision(Action.RESOLVE)
    regraded = alerting.regrade(window, alert, direction, fl.configured)
    return regraded or AlertDecision(Action.KEEP)


def assess(
    history: Sequence[Point],
    new: Point,
    *,
    direction: str,
    thresholds: Thresholds,
    alert: OpenAlert | None = None,
    pinned: Point | None = None,
    mode: Mode = Mode.CI,
) -> Assessment:
    """Judge one upload of a series and decide on its alert (module docstring)."""
    if direction not in (HIGHER, LOWER):
        raise ValueError(f"unknown direction {direction!r}")
    if not math.isfinite(new.value) or any(not math.isfinite(p.value) for p in history):
        raise ValueError("values must be finite numbers")
    pts = list(history[-HISTORY_NEEDED:])
    breaks = _breaks(pts, alert)
    start = breaks[-1] if breaks else 0
    fl = floors([p.value for p in pts], thresholds, breaks)
    verdict = _verdict(pts, start, new, direction, fl, pinned)
    if mode is Mode.CI and not new.restart:
        verdict = _windowed(pts[start:], new, direction, fl, verdict)
    decision = _decide(
        [*pts, new],
        len(pts) if new.restart else start,
        direction,
        fl,
        alert,
        mode,
        verdict,
    )
    return Assessment(verdict, decision)
