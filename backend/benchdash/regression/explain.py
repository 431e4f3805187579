"""One-sentence explanations of verdicts, for the UI, the CLI summary and alerts.

`explain_verdict` and `explain_alert` word the two-stage detector's results
(detector.assess / confirm_reruns): they name the noise-calibrated floor and the stage
(suspected, confirmed and by what).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from benchdash.regression.engine import UNSTABLE_CV, Level
from benchdash.regression.floors import FLOOR_K, RESOLUTION_STEPS
from benchdash.regression.model import Action, AlertDecision, AlertKind, Floors, UploadVerdict

TIME_UNITS = {"ns", "us", "µs", "ms", "s", "ns/op", "ns/iter"}


def _words(unit: str, direction: str) -> tuple[str, str]:
    timelike = unit in TIME_UNITS or (direction == "higher_is_better" and unit.endswith("/s"))
    return ("slower", "faster") if timelike else ("worse", "better")


def describe_runs(run_ids: Sequence[int], source: str | None, branch: str | None = None) -> str:
    """'the median of runs #41–#45', 'run #7', 'the pinned baseline run #3', or with a base
    branch 'the median of main's runs #41–#45'."""
    ids = sorted(run_ids)
    if source == "pinned" and ids:
        return f"the pinned baseline run #{ids[0]}"
    whose = f"{branch}'s " if branch else ""
    if not ids:
        return f"the baseline of {branch}" if branch else "the baseline"
    if len(ids) == 1:
        return f"{whose}run #{ids[0]}"
    if ids == list(range(ids[0], ids[-1] + 1)):
        return f"the median of {whose}runs #{ids[0]}–#{ids[-1]}"
    return f"the median of {whose}runs " + ", ".join(f"#{i}" for i in ids)


def format_change(pct: float | None, direction: str, unit: str = "") -> str:
    """A change in the metric's own direction with its word, the one sign convention of the UI
    and the runner's summary: `change_pct` is positive when worse; a throughput that fell
    11.8 % is "−11.8 % req/s · worse", a latency that rose 3 % "+3.0 % ms · worse"."""
    if pct is None or not math.isfinite(pct):
        return "—"
    if abs(pct) < 0.05:
        return "±0.0 %"
    moved = -pct if direction == "higher_is_better" else pct
    sign = "+" if moved > 0 else "\u2212"
    shown = f" {unit}" if unit else ""
    return f"{sign}{abs(pct):.1f} %{shown} · {'worse' if pct > 0 else 'better'}"


def _fmt(x: float) -> str:
    return f"{x:.3g}" if x >= 0.001 else f"{x:.1e}"


def _floor_words(floors: Floors) -> str:
    """'warn floor 16 %, fail floor 21 % (2 × the series' 8.0 % run-to-run variation; …)'."""
    cfg = floors.configured
    if floors.variation is None:
        return f"warn floor {floors.warn:.3g} % (configured; noise not yet measured)"
    if floors.warn <= cfg.warn:
        why = f"the series varies {floors.variation:.1f} % from run to run"
    elif floors.warn <= FLOOR_K * floors.variation:
        why = f"{FLOOR_K:g} × the series' {floors.variation:.1f} % run-to-run variation"
    else:
        why = f"{RESOLUTION_STEPS:g} × the series' {floors.resolution or 0:.2g} % resolution"
    return (
        f"warn floor {floors.warn:.3g} %, fail floor {floors.fail:.3g} % "
        f"({why}; configured {cfg.warn:g} %/{cfg.fail:g} %)"
    )


def explain_verdict(
    verdict: UploadVerdict, *, unit: str, direction: str, base_branch: str | None = None
) -> str:
    """Say why an upload got its verdict: change, the noise-calibrated floor, its stage;
    `base_branch` when the series was judged on its base branch's history."""
    if verdict.level == Level.NO_BASELINE or verdict.baseline is None:
        return "No earlier run on this branch and testbed to compare with."
    worse, better = _words(unit, direction)
    b = verdict.baseline
    base = describe_runs(b.run_ids, b.source, base_branch)
    pct = verdict.change_pct
    if pct is None:  # the baseline was 0: no percentage, but still a direction
        size = f"{better if verdict.level == Level.IMPROVED else worse} than {base}, which was 0"
    else:
        size = f"{abs(pct):.1f} % {worse if pct >= 0 else better} than {base}"
    if verdict.gate == "history-too-short":
        return f"{size}; learning, not judged yet: {verdict.reason}."
    floor = _floor_words(verdict.floors)
    welch = f", p = {_fmt(verdict.p_value)} within the run" if verdict.p_value is not None else ""
    if verdict.window is not None:
        return (
            f"{size}; {floor}. {verdict.window.text(worse)}: a shift of the level, judged "
            "as a step although no single run crossed the floor."
        )
    if verdict.suspected:
        return (
            f"{size}{welch}; {floor}. Suspected: an alert opens only once the step is "
            "confirmed (re-runs, or the next runs staying worse)."
        )
    if verdict.level == Level.IMPROVED:
        return f"{size}{welch}; {floor}: improved."
    if verdict.level == Level.NOISY:
        return f"{size}{welch}, within this series' noise: {floor}."
    if verdict.level == Level.UNSTABLE:
        return f"Samples vary more than {UNSTABLE_CV * 100:g} % within the run; {size}."
    return f"{size}; {floor}."


def explain_alert(decision: AlertDecision, *, unit: str, direction: str) -> str:
    """Say why an alert opened: the confirmed step, its first bad run and commit range."""
    if decision.action is not Action.OPEN:
        raise ValueError("only an OPEN decision has a step to explain")
    worse, _ = _words(unit, direction)
    if decision.kind == AlertKind.DRIFT:
        return _explain_drift(decision, worse)
    pct = decision.change_pct
    size = f"{abs(pct):.1f} % {worse}" if pct is not None else worse
    lo, hi = decision.change_low, decision.change_high
    if pct is not None and lo is not None and hi is not None and math.isfinite(lo + hi):
        size += f" (95 % CI {lo:.1f}–{hi:.1f} %, graded {decision.level})"
    first = f"run #{decision.first_bad_run_id}"
    if decision.first_bad_commit:
        first += f" ({decision.first_bad_commit[:12]})"
    good = ""
    if decision.last_good_run_id is not None:
        good = f"; last good run #{decision.last_good_run_id}"
        if decision.last_good_commit:
            good += f" ({decision.last_good_commit[:12]})"
    how = {
        "change-point": "a significant change point"
        + (f" (p = {_fmt(decision.p_value)})" if decision.p_value is not None else ""),
        "persistence": "the first bad run and the next 3 all staying worse",
        "window": "the runs since shifted together (rank test"
        + (f", p = {_fmt(decision.p_value)})" if decision.p_value is not None else ")"),
        "re-runs": "re-runs of the same commit",
    }.get(decision.confirmed_by or "", "confirmation")
    floor = f"{decision.warn_floor:.3g} %" if decision.warn_floor is not None else "the floor"
    return f"{size} from {first} on{good}: confirmed by {how}; warn floor {floor}."


def _explain_drift(decision: AlertDecision, worse: str) -> str:
    """'Drift: 6.2 % slower over the last 61 runs, from run #40 (c40) on, …'."""
    pct = decision.change_pct
    size = f"{abs(pct):.1f} % {worse}" if pct is not None else worse
    first = f"run #{decision.first_bad_run_id}"
    if decision.first_bad_commit:
        first += f" ({decision.first_bad_commit[:12]})"
    span = f" over the last {decision.window_runs} runs" if decision.window_runs else ""
    named = ", ".join(
        f"#{c.run_id}" + (f" ({c.commit[:12]})" if c.commit else "") + f" {c.change_pct:+.1f} %"
        for c in decision.contributors
    )
    most = f"; the runs that worsened it most: {named}" if named else ""
    return (
        f"Drift: {size}{span}, from {first} on, against the level of the runs before it"
        f"{most}. No single step explains it; graded {decision.level} by the configured "
        "thresholds."
    )
