"""Runner-executed systems confirm a suspected change by re-running the same ref.

When a run from the queue (POST /runs) has suspected points, `queue` defers `count` re-runs of
its commit with its profile. They are not accepted into the series' history. When every
re-run has ended, `settle` asks the detector (`confirm_reruns`) about each suspected point:
still worse in every re-run → the alert of that step opens, naming the run; otherwise the
point is dismissed. `settle_pending` finds the groups whose last re-run ended without an
upload (failed, cancelled), from the API's background loop.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.alerts import service as alert_service
from benchdash.kit.errors import AppError
from benchdash.kit.sql import sql_in
from benchdash.regression import confirm
from benchdash.regression.engine import Baseline, Level, Thresholds
from benchdash.regression.model import Action, Floors, Point, Stage, UploadVerdict
from benchdash.results import store
from benchdash.results.judge import Judged
from benchdash.runs import lifecycle
from benchdash.runs.models import Run
from benchdash.runs.states import TERMINAL, RunStatus, RunTrigger

log = logging.getLogger("benchdash")

_SUSPECTS = text(
    f"""
    SELECT v.id, m.series_id, m.value, r.commit, r.started_at, v.level, v.baseline_value,
           v.baseline_run_ids, v.baseline_source, v.change_pct, v.p_value, v.z_score, v.gate,
           v.warn_threshold, v.fail_threshold, v.floor_warn, v.floor_fail, v.variation,
           mt.direction, m.benchmark_id, m.metric_id
    FROM measurement m JOIN verdict v ON v.measurement_id = m.id
    JOIN run r ON r.id = m.run_id JOIN metric mt ON mt.id = m.metric_id
    WHERE m.run_id = :run AND v.stage = '{Stage.SUSPECTED}'
    """
)
_RERUN_POINTS = text(
    f"""
    SELECT m.run_id, m.value, r.commit FROM measurement m JOIN run r ON r.id = m.run_id
    WHERE r.rerun_of = :run AND r.status = '{RunStatus.COMPLETED}'
      AND m.benchmark_id = :benchmark AND m.metric_id = :metric
    ORDER BY r.id
    """
)
_LAST_GOOD = text(
    """
    SELECT m.run_id, m.value, r.commit FROM measurement m JOIN run r ON r.id = m.run_id
    WHERE m.series_id = :series AND r.accepted AND (m.started_at, m.run_id) < (:at, :run)
    ORDER BY m.started_at DESC, m.run_id DESC LIMIT 1
    """
)
# Driven from the re-runs (few rows, `rerun_of` indexed) rather than from every verdict.
_PENDING = text(
    f"""
    SELECT DISTINCT q.rerun_of FROM run q
    WHERE q.rerun_of IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM run r WHERE r.rerun_of = q.rerun_of
                      AND r.status NOT IN ({sql_in(TERMINAL)}))
      AND EXISTS (SELECT 1 FROM measurement m JOIN verdict v ON v.measurement_id = m.id
                  WHERE m.run_id = q.rerun_of AND v.stage = '{Stage.SUSPECTED}')
    """
)


def queue(
    *, session: Session, run: Run, judged: Sequence[Judged], system: str, branch: str, count: int
) -> list[int]:
    """Defer `count` re-runs of a queued run that has suspected points; their ids."""
    if run.rerun_of is not None or count <= 0 or not run.profile:
        return []
    if not any(j.assessment.verdict.suspected for j in judged):
        return []
    ids: list[int] = []
    for _ in range(count):
        try:
            rerun = lifecycle.trigger(
                session=session,
                system=system,
                ref=run.commit or run.ref or "HEAD",
                profile=run.profile,
                benchmarks=None,
                trigger_kind=RunTrigger.RERUN,
                branch=branch,
                rerun_of=run.id,
            )
        except AppError as exc:  # e.g. the agent unregistered: the points stay suspected
            log.warning("re-run of run %s not queued: %s", run.id, exc.detail)
            return ids
        ids.append(rerun.id)
    return ids


def _stored_verdict(r: Any) -> UploadVerdict:
    """The stage-one verdict of a suspected point, as stored (a row of _SUSPECTS)."""
    configured = Thresholds(r.warn_threshold, r.fail_threshold)
    floors = Floors(
        configured=configured,
        variation=r.variation,
        runs=0,
        warn=r.floor_warn or configured.warn,
        fail=r.floor_fail or configured.fail,
    )
    baseline = Baseline(
        r.baseline_value, tuple(r.baseline_run_ids or ()), (), r.baseline_source or "median"
    )
    return UploadVerdict(
        Level(r.level), True, baseline, r.change_pct, r.p_value, r.z_score, r.gate, floors
    )


def settle(*, session: Session, run_id: int) -> int:
    """Confirm or dismiss each suspected point of `run_id` once all its re-runs ended."""
    statuses = session.scalars(
        text("SELECT status FROM run WHERE rerun_of = :run"), {"run": run_id}
    ).all()
    if not statuses or any(s not in TERMINAL for s in statuses):
        return 0
    settled = 0
    for row in session.execute(_SUSPECTS, {"run": run_id}).all():
        reruns = [
            Point(rid, value, commit)
            for rid, value, commit in session.execute(
                _RERUN_POINTS,
                {"run": run_id, "benchmark": row.benchmark_id, "metric": row.metric_id},
            ).all()
        ]
        if not reruns:
            continue  # every re-run failed: the point stays suspected, the run page says so
        good = session.execute(
            _LAST_GOOD, {"series": row.series_id, "at": row.started_at, "run": run_id}
        ).first()
        alert = alert_service.open_alerts(session=session, series_ids=[row.series_id])
        decision = confirm.confirm_reruns(
            suspect=Point(run_id, row.value, row.commit),
            verdict=_stored_verdict(row),
            reruns=reruns,
            direction=row.direction,
            last_good=Point(good.run_id, good.value, good.commit) if good else None,
            alert=alert.get(row.series_id),
        )
        if decision.action is Action.OPEN:
            alert_service.open_step(
                session=session,
                series_id=row.series_id,
                decision=decision,
                by_run_id=run_id,
                verdict_id=row.id,
            )
        else:
            store.set_stage(
                session=session,
                verdict_id=row.id,
                stage=Stage.DISMISSED,
                note=" Dismissed: its re-runs of the same commit did not repeat it.",
            )
        settled += 1
    return settled


def settle_pending(*, session: Session) -> int:
    """Settle every run whose re-runs have all ended but whose suspects still wait."""
    return sum(settle(session=session, run_id=run_id) for run_id in session.scalars(_PENDING).all())
