"""Runs: listing, reading, comparing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from benchdash.kit.errors import InvalidInput, NotFound
from benchdash.regression import engine
from benchdash.results import read as result_read
from benchdash.results.schemas import RunSummary, VerdictRead
from benchdash.runs.models import RUN_STATES, Run
from benchdash.runs.schemas import CompareRow, Comparison, RunDetail
from benchdash.systems.models import Branch, System, Testbed


@dataclass
class RunFilter:
    """Filters of the runs list."""

    system: str | None = None
    branch: str | None = None
    status: str | None = None
    commit: str | None = None


def _summaries(
    session: Session, rows: Sequence[tuple[Run, str, str, str | None]]
) -> list[RunSummary]:
    counts = result_read.level_counts(session=session, run_ids=[r[0].id for r in rows])
    return [
        RunSummary(
            id=run.id,
            system=slug,
            external_id=run.external_id,
            commit=run.commit,
            branch=branch,
            testbed=testbed,
            version=run.version,
            trigger=run.trigger,
            profile=run.profile,
            status=run.status,
            message=run.message,
            created_at=run.created_at,
            started_at=run.started_at,
            finished_at=run.finished_at,
            url=f"/runs/{run.id}",
            counts=counts.get(run.id, {}),
            ref=run.ref,
            progress=run.progress,
            cancel_requested=run.cancel_requested,
            agent=run.agent,
        )
        for run, slug, branch, testbed in rows
    ]


def _base_query() -> Select[tuple[Run, str, str, str]]:
    return (
        select(Run, System.slug, Branch.name, Testbed.name)
        .join(System, System.id == Run.system_id)
        .join(Branch, Branch.id == Run.branch_id)
        .outerjoin(Testbed, Testbed.id == Run.testbed_id)
    )


def list_runs(
    *, session: Session, filters: RunFilter, limit: int, offset: int
) -> tuple[list[RunSummary], int]:
    """A page of runs, newest first, and the total matching."""
    if filters.status and filters.status not in RUN_STATES:
        raise InvalidInput(f"unknown status {filters.status!r}; one of {', '.join(RUN_STATES)}")
    q = _base_query()
    if filters.system:
        q = q.where(System.slug == filters.system)
    if filters.branch:
        q = q.where(Branch.name == filters.branch)
    if filters.status:
        q = q.where(Run.status == filters.status)
    if filters.commit:
        q = q.where(Run.commit.startswith(filters.commit))
    total = session.scalar(select(func.count()).select_from(q.subquery())) or 0
    rows = session.execute(
        q.order_by(Run.started_at.desc(), Run.id.desc()).limit(limit).offset(offset)
    ).all()
    return _summaries(session, [tuple(r) for r in rows]), total


def summary(*, session: Session, run_id: int) -> RunSummary:
    """One run without measurements, or NotFound."""
    row = session.execute(_base_query().where(Run.id == run_id)).first()
    if row is None:
        raise NotFound(f"no run {run_id}")
    return _summaries(session, [tuple(row)])[0]


def detail(*, session: Session, run_id: int) -> RunDetail:
    """One run with environment, configuration and measurements with verdicts."""
    head = summary(session=session, run_id=run_id)
    run = session.get(Run, run_id)
    assert run is not None
    measurements = result_read.verdicts_for_run(
        session=session, run_id=run_id, system=head.system, branch=head.branch
    )
    return RunDetail(
        **head.model_dump(),
        environment=run.environment,
        configuration=run.configuration,
        measurements=measurements,
    )


def compare(*, session: Session, base_id: int, head_id: int) -> Comparison:
    """Every series of two runs of one system, head against base."""
    base, head = detail(session=session, run_id=base_id), detail(session=session, run_id=head_id)
    if base.system != head.system:
        raise InvalidInput(f"runs {base_id} and {head_id} belong to different systems")

    def key(v: VerdictRead) -> tuple[str, str, str]:
        return (v.benchmark, str(sorted(v.parameters.items())), v.metric)

    left = {key(v): v for v in base.measurements}
    right = {key(v): v for v in head.measurements}
    rows: list[CompareRow] = []
    for k in sorted(left.keys() | right.keys()):
        a, b = left.get(k), right.get(k)
        ref = b or a
        assert ref is not None
        change = p = None
        level = None
        if a is not None and b is not None:
            stats_a = engine.summarize(a.samples, a.value)
            stats_b = engine.summarize(b.samples, b.value)
            verdict = engine.judge(
                current=stats_b,
                direction=ref.direction,
                baseline=engine.Baseline(a.value, (a.measurement_id,), stats_a.clean, "pinned"),
                thresholds=engine.Thresholds(ref.warn_threshold, ref.fail_threshold),
            )
            change, p, level = verdict.change_pct, verdict.p_value, verdict.level.value
        rows.append(
            CompareRow(
                benchmark=ref.benchmark,
                parameters=ref.parameters,
                metric=ref.metric,
                unit=ref.unit,
                direction=ref.direction,
                base=a.value if a else None,
                head=b.value if b else None,
                change_pct=change,
                p_value=p,
                level=level,
            )
        )
    return Comparison(
        base=RunSummary(
            **base.model_dump(exclude={"environment", "configuration", "measurements"})
        ),
        head=RunSummary(
            **head.model_dump(exclude={"environment", "configuration", "measurements"})
        ),
        rows=rows,
    )
