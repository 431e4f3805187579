"""Runs: one run's summary, the query every run listing starts from, pinned baselines."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from benchdash.kit.errors import InvalidInput, NotFound
from benchdash.runs.models import Run
from benchdash.runs.schemas import Progress, RunSummary
from benchdash.runs.states import RunStatus
from benchdash.systems import service as system_service
from benchdash.systems.models import Branch, System, Testbed
from benchdash.systems.schemas import BranchRead

RunRow = tuple[Run, str, str, str | None]  # run, system slug, branch name, testbed name


def base_query() -> Select[tuple[Run, str, str, str]]:
    """Runs joined with their system slug, branch name and testbed name."""
    return (
        select(Run, System.slug, Branch.name, Testbed.name)
        .join(System, System.id == Run.system_id)
        .join(Branch, Branch.id == Run.branch_id)
        .outerjoin(Testbed, Testbed.id == Run.testbed_id)
    )


def to_summary(row: RunRow, counts: dict[str, int] | None = None) -> RunSummary:
    """The wire summary of a run row (`counts`: its verdicts by level, when known)."""
    run, slug, branch, testbed = row
    return RunSummary(
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
        counts=counts or {},
        ref=run.ref,
        requested_benchmarks=run.requested_benchmarks,
        progress=Progress.model_validate(run.progress) if run.progress else None,
        cancel_requested=run.cancel_requested,
        agent=run.agent,
        rerun_of=run.rerun_of,
        task=run.task,
    )


def rows(*, session: Session, run_ids: Sequence[int]) -> list[RunRow]:
    """Run rows of these ids, in no particular order."""
    found = session.execute(base_query().where(Run.id.in_(run_ids))).all()
    return [tuple(r) for r in found]


def summary(*, session: Session, run_id: int, counts: dict[str, int] | None = None) -> RunSummary:
    """One run without measurements, or NotFound."""
    row = session.execute(base_query().where(Run.id == run_id)).first()
    if row is None:
        raise NotFound(f"no run {run_id}")
    return to_summary(tuple(row), counts)


def system_of(*, session: Session, run_id: int) -> str:
    """The slug of the run's system, or NotFound (checked before authorising a run action)."""
    return system_service.slug_owning(session=session, model=Run, row_id=run_id, what="run")


def pin_baseline(*, session: Session, slug: str, branch: str, run_id: int | None) -> BranchRead:
    """Pin (or unpin with None) a completed run of the system as the baseline of a branch."""
    system = system_service.get_by_slug(session=session, slug=slug)
    br = system_service.find_branch(session=session, system_id=system.id, name=branch)
    if br is None:
        raise NotFound(f"system {slug!r} has no branch {branch!r}")
    if run_id is not None:
        run = session.get(Run, run_id)
        if run is None or run.system_id != system.id:
            raise NotFound(f"run {run_id} does not exist for system {slug!r}")
        if run.status != RunStatus.COMPLETED:
            raise InvalidInput(
                f"run {run_id} is {run.status}; only completed runs can be baselines"
            )
    br.pinned_run_id = run_id
    session.flush()
    return BranchRead(name=br.name, base_branch=br.base_branch, pinned_run_id=br.pinned_run_id)
