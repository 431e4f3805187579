"""A pull request's verdict: the run's stored measurements against its base's recent runs.

A run whose branch names a base branch (`run.base_branch`, a pull or merge request's target)
is decided by `regression.pr` on its own samples, whatever its branch's own history holds. It
is read from what is stored (the run's measurements, the base's points before the run), so the
first answer and any later one (a retried upload, the run's page) are the same.
"""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.regression import pr
from benchdash.regression.engine import Thresholds
from benchdash.regression.model import Point
from benchdash.results import history
from benchdash.results.schemas import BaseRunRead, PrSeriesRead, PrVerdictRead
from benchdash.runs.models import Run

_BASE = text(
    """
    SELECT base.id, base.name FROM branch br
    JOIN branch base ON base.system_id = br.system_id AND base.name = br.base_branch
    WHERE br.id = :branch AND base.id <> br.id
    """
)
_NAMED = text("SELECT base_branch FROM branch WHERE id = :branch AND base_branch <> name")
_MEASURED = text(
    """
    SELECT m.benchmark_id, m.metric_id, b.name, b.params_key, mt.name, mt.direction,
           mt.warn_threshold, mt.fail_threshold, m.value, m.samples
    FROM measurement m
    JOIN benchmark b ON b.id = m.benchmark_id
    JOIN metric mt ON mt.id = m.metric_id
    WHERE m.run_id = :run
    ORDER BY b.name, b.params_key, mt.name
    """
)


def pr_verdict(*, session: Session, run: Run) -> PrVerdictRead | None:
    """The run's verdict against its base branch, or None when its branch has no base."""
    named = session.execute(_NAMED, {"branch": run.branch_id}).scalar()
    if not named or run.testbed_id is None:
        return None
    base = session.execute(_BASE, {"branch": run.branch_id}).first()
    rows = session.execute(_MEASURED, {"run": run.id}).all()
    points: dict[history.SeriesKey, list[Point]] = {}
    if base is not None:
        points = history.recent_points(
            session=session,
            branch_id=base[0],
            testbed_id=run.testbed_id,
            keys=[(r[0], r[1]) for r in rows],
            before=(run.started_at, run.id),
            limit=pr.BASE_RUNS,
        )
    series, commits = [], {}
    for bid, mid, bench, params_key, metric, direction, warn, fail, value, samples in rows:
        base_points = points.get((bid, mid), [])
        call = pr.judge_series(
            base_points,
            [float(x) for x in samples or ()],
            float(value),
            direction=direction,
            thresholds=Thresholds(warn, fail),
        )
        if call.outcome != pr.NO_BASE:
            commits.update({p.run_id: p.commit for p in base_points[-pr.BASE_RUNS :]})
        size = call.size
        series.append(
            PrSeriesRead(
                benchmark=bench,
                params_key=params_key,
                metric=metric,
                outcome=call.outcome,
                change_pct=size.estimate if size else None,
                low_pct=size.low if size else None,
                high_pct=size.high if size else None,
                samples=call.samples,
                noise_pct=call.noise,
                reason=call.reason,
            )
        )
    return PrVerdictRead(
        verdict=pr.verdict([s.outcome for s in series]),
        base_branch=named,
        base_runs=[BaseRunRead(run_id=i, commit=commits[i]) for i in sorted(commits)],
        series=series,
    )
