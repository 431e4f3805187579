"""Run listings, run details and comparisons: runs with their verdicts."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from benchdash.alerts import queries as alert_queries
from benchdash.alerts.states import AlertStatus
from benchdash.kit.errors import InvalidInput
from benchdash.regression import engine
from benchdash.results import pr as result_pr
from benchdash.results import read as result_read
from benchdash.results.schemas import VerdictRead
from benchdash.runs import environment
from benchdash.runs import service as run_service
from benchdash.runs.models import Run
from benchdash.runs.read_models import CompareRow, Comparison, RunDetail
from benchdash.runs.schemas import RunSummary
from benchdash.runs.states import RunStatus
from benchdash.systems.models import Branch, System


@dataclass
class RunFilter:
    """Filters of the runs list."""

    system: str | None = None
    branch: str | None = None
    status: RunStatus | None = None
    commit: str | None = None


def list_runs(
    *, session: Session, filters: RunFilter, limit: int, offset: int
) -> tuple[list[RunSummary], int]:
    """A page of runs, newest first, with their verdict counts, and the total matching."""
    q = run_service.base_query()
    if filters.system:
        q = q.where(System.slug == filters.system)
    if filters.branch:
        q = q.where(Branch.name == filters.branch)
    if filters.status:
        q = q.where(Run.status == filters.status)
    if filters.commit:
        q = q.where(Run.commit.startswith(filters.commit, autoescape=True))
    total = session.scalar(select(func.count()).select_from(q.subquery())) or 0
    rows = session.execute(
        q.order_by(Run.started_at.desc(), Run.id.desc()).limit(limit).offset(offset)
    ).all()
    counts = result_read.level_counts(session=session, run_ids=[r[0].id for r in rows])
    return [run_service.to_summary(tuple(r), counts.get(r[0].id)) for r in rows], total


def detail(*, session: Session, run_id: int) -> RunDetail:
    """One run with environment, configuration and measurements with verdicts."""
    head = run_service.summary(session=session, run_id=run_id)
    run = session.get(Run, run_id)
    assert run is not None
    measurements = result_read.verdicts_for_run(
        session=session, run_id=run_id, system=head.system, branch=head.branch
    )
    counts: dict[str, int] = {}
    for m in measurements:
        counts[m.level] = counts.get(m.level, 0) + 1
    reruns = session.execute(
        run_service.base_query().where(Run.rerun_of == run_id).order_by(Run.id)
    ).all()
    return RunDetail(
        **head.model_dump(exclude={"counts"}),
        counts=counts,
        environment=run.environment,
        configuration=run.configuration,
        measurements=measurements,
        reruns=[run_service.to_summary(tuple(r)) for r in reruns],
        alerts=alert_queries.list_alerts(session=session, status=list(AlertStatus), run_id=run_id),
        environment_change=environment.of_run(
            session=session,
            system_id=run.system_id,
            branch_id=run.branch_id,
            testbed_id=run.testbed_id,
            run_id=run.id,
        ),
        pr=result_pr.pr_verdict(session=session, run=run),
    )


def _row(a: VerdictRead | None, b: VerdictRead | None, base_run_id: int) -> CompareRow:
    ref = b or a
    assert ref is not None
    change = p = level = None
    if a is not None and b is not None:
        stats_a = engine.summarize(a.samples, a.value)
        verdict = engine.judge(
            current=engine.summarize(b.samples, b.value),
            direction=ref.direction,
            baseline=engine.Baseline(a.value, (base_run_id,), stats_a.clean, "pinned"),
            thresholds=engine.Thresholds(ref.warn_threshold, ref.fail_threshold),
        )
        change, p, level = verdict.change_pct, verdict.p_value, verdict.level
    return CompareRow(
        benchmark=ref.benchmark,
        parameters=ref.parameters,
        params_key=ref.params_key,
        metric=ref.metric,
        unit=ref.unit,
        direction=ref.direction,
        base=a.value if a else None,
        head=b.value if b else None,
        change_pct=change,
        p_value=p,
        level=level,
    )


def compare(*, session: Session, base_id: int, head_id: int) -> Comparison:
    """Every series of two runs of one system, head judged against base as a pinned baseline."""
    base, head = detail(session=session, run_id=base_id), detail(session=session, run_id=head_id)
    if base.system != head.system:
        raise InvalidInput(f"runs {base_id} and {head_id} belong to different systems")

    def key(v: VerdictRead) -> tuple[str, str, str]:
        return (v.benchmark, v.params_key, v.metric)

    left = {key(v): v for v in base.measurements}
    right = {key(v): v for v in head.measurements}
    rows = [_row(left.get(k), right.get(k), base_id) for k in sorted(left.keys() | right.keys())]
    keep = set(RunSummary.model_fields)
    return Comparison(
        base=RunSummary(**base.model_dump(include=keep)),
        head=RunSummary(**head.model_dump(include=keep)),
        rows=rows,
    )
