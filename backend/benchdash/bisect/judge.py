"""A step's verdict: its run's samples of the benchmark against both ends' (`decide.classify`),
or skipped (its build failed) or failed (its run failed otherwise)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.bisect.decide import Evidence, Verdict, classify
from benchdash.bisect.models import Bisection, BisectionStep
from benchdash.bisect.states import BisectState
from benchdash.db import utcnow
from benchdash.runs.models import Run
from benchdash.runs.states import RunStatus

BUILD_FAILED = "the build failed"  # the agent's message when the driver exits 3 (CONTRACT.md)
_SAMPLES = text(
    "SELECT samples, value FROM measurement "
    "WHERE run_id = :run AND benchmark_id = :benchmark AND metric_id = :metric"
)
# An end's samples: every completed run of its commit (the alert's first bad run and its
# re-runs measured the bad commit; the last good run maybe others of the good one).
_END_SAMPLES = text(
    f"""
    SELECT m.samples, m.value FROM measurement m JOIN run r ON r.id = m.run_id
    WHERE r.system_id = :system AND r.commit = :commit AND r.status = '{RunStatus.COMPLETED}'
      AND m.benchmark_id = :benchmark AND m.metric_id = :metric
    ORDER BY r.id DESC LIMIT 20
    """
)


def _samples(session: Session, bisection: Bisection, run_id: int | None) -> list[float]:
    if run_id is None:
        return []
    row = session.execute(
        _SAMPLES,
        {"run": run_id, "benchmark": bisection.benchmark_id, "metric": bisection.metric_id},
    ).first()
    if row is None:
        return []
    return [float(x) for x in (row.samples or [row.value])]


def _end(session: Session, bisection: Bisection, commit: str) -> list[float]:
    rows = session.execute(
        _END_SAMPLES,
        {
            "system": bisection.system_id,
            "commit": commit,
            "benchmark": bisection.benchmark_id,
            "metric": bisection.metric_id,
        },
    ).all()
    return [float(x) for r in rows for x in (r.samples or [r.value])]


def _evidence(e: Evidence, n: int) -> dict[str, Any]:
    return {
        "median": e.median,
        "good_median": e.good_median,
        "bad_median": e.bad_median,
        "p_good": e.p_good,
        "p_bad": e.p_bad,
        "samples": n,
        "why": e.why,
    }


def judge(session: Session, bisection: Bisection, step: BisectionStep, run: Run) -> None:
    """The verdict of a step whose run has ended."""
    step.finished_at = utcnow()
    if run.status != RunStatus.COMPLETED:
        build = run.status == RunStatus.FAILED and (run.message or "").startswith(BUILD_FAILED)
        step.verdict = Verdict.SKIPPED if build else Verdict.FAILED
        if run.status == RunStatus.CANCELLED and bisection.state != BisectState.RUNNING:
            step.verdict = Verdict.CANCELLED
        step.evidence = {"run_status": run.status, "message": run.message}
        return
    mid = _samples(session, bisection, run.id)
    good = _end(session, bisection, bisection.good_commit)
    bad = _end(session, bisection, bisection.bad_commit)
    if not mid or not good or not bad:
        step.verdict = Verdict.FAILED
        step.evidence = {"message": "no measurement of the benchmark in this run or an end"}
        return
    evidence = classify(good, bad, mid)
    step.verdict = evidence.verdict
    step.evidence = _evidence(evidence, len(mid))
