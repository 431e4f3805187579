"""Stage two for runner-executed series: a suspected point confirmed or dismissed by re-runs.

The runner-executed counterpart of `detector.assess`'s change-point decision: the caller
queued re-runs of the suspect's ref (`alerts/reruns.py`) and asks here once they all ended.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import median

from benchdash.regression.engine import Level, change_worse
from benchdash.regression.model import Action, AlertDecision, OpenAlert, Point, UploadVerdict


def confirm_reruns(
    *,
    suspect: Point,
    verdict: UploadVerdict,
    reruns: Sequence[Point],
    direction: str,
    last_good: Point | None = None,
    alert: OpenAlert | None = None,
) -> AlertDecision:
    """Runner-executed stage two: OPEN when every re-run of the suspect's ref is still worse
    than the suspect's baseline by its effective warn floor; otherwise the suspicion is
    dismissed (NONE, or KEEP while another alert is open)."""
    if verdict.baseline is None or not verdict.suspected:
        raise ValueError("only a suspected verdict can be confirmed")
    if not reruns:
        raise ValueError("no re-runs to judge")
    base, fl = verdict.baseline.value, verdict.floors
    changes = [change_worse(r.value, base, direction) * 100 for r in reruns]
    if not all(c >= fl.warn for c in changes):
        return AlertDecision(Action.NONE if alert is None else Action.KEEP)
    # Graded by the step's size, as a CI-fed step (grade.py): the median of the suspect's and
    # its re-runs' changes past the configured fail threshold, and none of them below warn.
    size = median([c for c in [verdict.change_pct, *changes] if c is not None])
    cfg = fl.configured
    failing = size > cfg.fail and min(changes) > cfg.warn
    return AlertDecision(
        action=Action.OPEN,
        level=Level.FAIL if failing else Level.WARN,
        first_bad_run_id=suspect.run_id,
        first_bad_commit=suspect.commit,
        last_good_run_id=last_good.run_id if last_good else None,
        last_good_commit=last_good.commit if last_good else None,
        baseline_value=base,
        change_pct=size,
        warn_floor=fl.warn,
        confirmed_by="re-runs",
        supersedes=alert is not None,
    )
