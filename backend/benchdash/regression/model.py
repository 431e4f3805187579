"""The values the detector takes and returns (see `benchdash.regression.detector`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from benchdash.regression.engine import Baseline, Level, Thresholds
from benchdash.regression.window import WindowShift


class Stage(StrEnum):
    """How far a point has come through the two stages of an alert."""

    SUSPECTED = "suspected"  # its upload crossed the noise-calibrated floor
    CONFIRMED = "confirmed"  # an alert names it as the first bad run of a step
    DISMISSED = "dismissed"  # suspected, but its re-runs did not confirm it


class AlertKind(StrEnum):
    """What an alert names: a step (a first bad run) or a drift (a window of slow change)."""

    STEP = "step"
    DRIFT = "drift"


class Mode(StrEnum):
    """Who confirms a suspected point: the series' next runs, or re-runs of the same ref."""

    CI = "ci"  # CI-fed: change-point test over the recent window, or persistence
    RUNNER = "runner"  # runner-executed: `confirm_reruns` decides; `assess` never opens


class Action(StrEnum):
    """What to do with the series' alert after this upload."""

    NONE = "none"  # no alert open, none to open
    OPEN = "open"  # open an alert for a new step (supersedes the open one, if any)
    KEEP = "keep"  # the open alert stays open (with a level: re-graded, `alerting.regrade`)
    RESOLVE = "resolve"  # the open alert's series is back at its old level


@dataclass(frozen=True)
class Point:
    """One accepted run's value of a series.

    `stage` is the stage stored for this point earlier (None: never suspected); `restart`
    marks an accepted distribution change: the baseline restarts at this point.
    """

    run_id: int
    value: float
    commit: str | None = None
    samples: tuple[float, ...] = ()
    stage: Stage | None = None
    restart: bool = False


@dataclass(frozen=True)
class OpenAlert:
    """The series' alert that is not resolved (open or acknowledged)."""

    first_bad_run_id: int
    baseline_value: float  # the level before the step (a drift: the reference level)
    warn_floor: float  # the effective warn floor (%) when it opened
    kind: AlertKind = AlertKind.STEP
    level: str | None = None  # its grade now (warn | fail), for re-grading a step
    change_pct: float | None = None  # its step size now, positive = worse


@dataclass(frozen=True)
class Floors:
    """Configured thresholds, the series' noise, and the floors a change must cross."""

    configured: Thresholds
    variation: float | None  # typical run-to-run change in %, None when too few runs
    runs: int  # runs the variation was measured on
    warn: float  # effective warn floor in %: max(configured warn, K × variation, 2.5 × resolution)
    fail: float  # effective fail floor in %
    resolution: float | None = None  # smallest non-zero run-to-run change in %


@dataclass(frozen=True)
class UploadVerdict:
    """The per-upload verdict of one new point (stage one)."""

    level: Level
    suspected: bool
    baseline: Baseline | None
    change_pct: float | None
    p_value: float | None  # samples gate (Welch), when both sides have samples
    z_score: float | None  # change in units of the series' run-to-run variation
    gate: str | None  # "floor" | "floor+welch" | "window" | "history-too-short" | None
    floors: Floors
    reason: str | None = None  # why nothing was judged (too little history)
    window: WindowShift | None = None  # the newest runs shifted together (window.py)


@dataclass(frozen=True)
class Contributor:
    """A run that contributed much to a drift: its local worsening in %."""

    run_id: int
    commit: str | None
    change_pct: float


@dataclass(frozen=True)
class AlertDecision:
    """Stage two: what happens to the series' alert."""

    action: Action
    level: Level | None = None  # warn | fail, for OPEN
    first_bad_index: int | None = None  # index into history + [new]
    first_bad_run_id: int | None = None
    first_bad_commit: str | None = None
    last_good_run_id: int | None = None
    last_good_commit: str | None = None
    baseline_value: float | None = None  # the level before the step
    change_pct: float | None = None  # step size, positive = worse
    change_low: float | None = None  # its confidence interval (grade.py), %
    change_high: float | None = None
    p_value: float | None = None
    warn_floor: float | None = None  # the effective warn floor (%) the step crossed
    confirmed_by: str | None = None  # "change-point" | "persistence" | "window" | "re-runs"
    supersedes: bool = False  # OPEN while another alert of the series is open
    kind: AlertKind = AlertKind.STEP  # a drift's first bad run is its window's first run
    window_runs: int | None = None  # drift: runs from the reference's last to the newest
    graded_runs: int | None = None  # KEEP with a level: re-graded on this many runs after the step
    contributors: tuple[Contributor, ...] = ()  # drift: the runs that worsened it most


@dataclass(frozen=True)
class Assessment:
    """What one upload means for its series."""

    verdict: UploadVerdict
    decision: AlertDecision
