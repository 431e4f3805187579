"""Run listings, run details and comparisons: runs with their verdicts."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import BigInteger, any_, bindparam, func, select, true
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

from benchdash.alerts import queries as alert_queries
from benchdash.alerts.states import AlertStatus
from benchdash.kit.errors import InvalidInput
from benchdash.regression import engine
from benchdash.results import pr as result_pr
from benchdash.results import read as result_read
from benchdash.results.read import Compared
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


def latest_completed(
    *, session: Session, system_ids: list[int] | None = None
) -> dict[int, RunSummary]:
    """Each system's newest completed run with its verdict counts, in two statements (one
    index probe per system), keyed by system id; every system's when `system_ids` is None."""
    systems_q = select(System.id.label("id"))
    if system_ids is not None:
        systems_q = systems_q.where(
            System.id == any_(bindparam("ids", system_ids, ARRAY(BigInteger)))
        )
    systems = systems_q.subquery()
    newest = (
        select(Run.id)
        .where(Run.system_id == systems.c.id, Run.status == RunStatus.COMPLETED)
        .order_by(Run.started_at.desc(), Run.id.desc())
        .limit(1)
        .lateral()
    )
    ids = select(newest.c.id).select_from(systems.join(newest, true()))
    rows = session.execute(run_service.base_query().where(Run.id.in_(ids))).all()
    counts = result_read.level_counts(session=session, run_ids=[r[0].id for r in rows])
    return {r[0].system_id: run_service.to_summary(tuple(r), counts.get(r[0].id)) for r in rows}


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


def _row(a: Compared | None, b: Compared | None, base_run_id: int) -> CompareRow:
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
    counts = result_read.level_counts(session=session, run_ids=[base_id, head_id])
    base = run_service.summary(session=session, run_id=base_id, counts=counts.get(base_id, {}))
    head = run_service.summary(session=session, run_id=head_id, counts=counts.get(head_id, {}))
    if base.system != head.system:
        raise InvalidInput(f"runs {base_id} and {head_id} belong to different systems")

    def key(v: Compared) -> tuple[str, str, str]:
        return (v.benchmark, v.params_key, v.metric)

    values = result_read.compared(session=session, run_ids=[base_id, head_id])
    left = {key(v): v for v in values if v.run_id == base_id}
    right = {key(v): v for v in values if v.run_id == head_id}
    rows = [_row(left.get(k), right.get(k), base_id) for k in sorted(left.keys() | right.keys())]
    return Comparison(base=base, head=head, rows=rows)
