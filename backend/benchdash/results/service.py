"""Ingest of benchdash/v1 documents: the run, its measurements and their verdicts.

A few statements whatever the document's size: system, branch, testbed, metrics, benchmarks
and series are resolved set-wise; the run row is inserted with ON CONFLICT on its external
id (so concurrent uploads of one document store it once); measurements and verdicts go in
as multi-row INSERT … RETURNING; the history of every series comes in one query
(`results.judge`). The response is built from what was computed, never re-read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from benchdash.db import utcnow
from benchdash.kit.errors import InvalidInput, NotFound
from benchdash.results import judge
from benchdash.results.models import Series
from benchdash.results.schemas import DocumentIn, ResultIn
from benchdash.runs import lifecycle
from benchdash.runs.models import Run
from benchdash.runs.states import RunStatus
from benchdash.systems import service as system_service
from benchdash.systems.models import Branch, System


@dataclass
class IngestOutcome:
    """The stored run, whether this call created it, and (when it did) what was judged."""

    run: Run
    created: bool
    system: System
    branch: Branch
    testbed: str | None
    judged: list[judge.Judged] = field(default_factory=list)


def find_by_external_id(*, session: Session, system_id: int, external_id: str) -> Run | None:
    """The run of this system with this external id, if any."""
    return session.scalar(
        select(Run).where(Run.system_id == system_id, Run.external_id == external_id)
    )


def _check_unique(results: list[ResultIn]) -> None:
    seen: dict[tuple[str, str, str], int] = {}
    for i, r in enumerate(results):
        key = system_service.params_key(r.parameters)
        for m in r.metrics:
            k = (r.benchmark, key, m.name)
            if k in seen:
                raise InvalidInput(
                    f"results[{i}] repeats benchmark {r.benchmark!r} metric {m.name!r} "
                    f"with the same parameters as results[{seen[k]}]",
                    errors=[{"loc": ["results", i, "benchmark"], "msg": "duplicate series"}],
                )
            seen[k] = i


def _declared_metrics(results: list[ResultIn]) -> dict[str, tuple[str, str]]:
    declared: dict[str, tuple[str, str]] = {}
    for i, r in enumerate(results):
        for j, m in enumerate(r.metrics):
            prev = declared.setdefault(m.name, (m.unit, m.direction))
            if prev != (m.unit, m.direction):
                raise InvalidInput(
                    f"metric {m.name!r} appears with two units or directions in one document "
                    f"({prev[0]}/{prev[1]} and {m.unit}/{m.direction})",
                    errors=[{"loc": ["results", i, "metrics", j, "unit"], "msg": "inconsistent"}],
                )
    return declared


def _insert_run(
    *, session: Session, document: DocumentIn, system_id: int, branch_id: int, testbed_id: int
) -> Run | None:
    """A new completed run; None when a concurrent upload stored this external id first."""
    meta, now = document.run, utcnow()
    values = {
        "testbed_id": testbed_id,
        "version": meta.version,
        "environment": document.environment,
        "configuration": document.configuration,
        "commit": meta.commit,
        "finished_at": meta.finished_at or now,
        "started_at": meta.started_at or now,
        "system_id": system_id,
        "branch_id": branch_id,
        "external_id": document.run.external_id,
        "trigger": document.run.trigger,
        "profile": document.run.profile,
        "status": RunStatus.COMPLETED,
        "created_at": now,
    }
    stmt = insert(Run).values(**values)
    if document.run.external_id:
        stmt = stmt.on_conflict_do_nothing(index_elements=["system_id", "external_id"])
    run_id = session.scalar(stmt.returning(Run.id))
    return None if run_id is None else session.get_one(Run, run_id)


def _complete_queued(*, session: Session, document: DocumentIn, run: Run, testbed_id: int) -> None:
    """Fill a queued run (POST /runs) with the document's metadata and complete it."""
    lifecycle.mark_completed(session=session, run=run)
    meta = document.run
    run.testbed_id = testbed_id
    run.version = meta.version
    run.environment = document.environment
    run.configuration = document.configuration
    run.commit = meta.commit or run.commit
    run.external_id = meta.external_id or run.external_id
    run.profile = meta.profile or run.profile
    run.started_at = meta.started_at or run.started_at
    run.finished_at = meta.finished_at or utcnow()
    session.flush()


def _ensure_series(
    *,
    session: Session,
    system_id: int,
    branch_id: int,
    testbed_id: int,
    pairs: list[tuple[int, int]],
) -> dict[tuple[int, int], int]:
    """Series ids of (benchmark, metric) pairs on a branch and testbed, created when new."""
    where = (Series.branch_id == branch_id, Series.testbed_id == testbed_id)

    def load() -> dict[tuple[int, int], int]:
        rows = session.execute(
            select(Series.benchmark_id, Series.metric_id, Series.id).where(
                *where,
                Series.benchmark_id.in_({b for b, _ in pairs}),
                Series.metric_id.in_({m for _, m in pairs}),
            )
        )
        return {(b, m): sid for b, m, sid in rows}

    have = load()
    missing = [p for p in pairs if p not in have]
    if missing:
        session.execute(
            insert(Series).on_conflict_do_nothing(),
            [
                {
                    "system_id": system_id,
                    "benchmark_id": b,
                    "metric_id": m,
                    "branch_id": branch_id,
                    "testbed_id": testbed_id,
                }
                for b, m in missing
            ],
        )
        have = load()
    return have


def ingest(*, session: Session, document: DocumentIn) -> IngestOutcome:
    """Store one document in the caller's transaction; the same external id returns the old run."""
    _check_unique(document.results)
    declared = _declared_metrics(document.results)
    system = system_service.ensure_system(session=session, slug=document.system)
    meta = document.run
    queued = None
    if meta.id is not None:
        queued = session.get(Run, meta.id)
        if queued is None or queued.system_id != system.id:
            raise NotFound(f"run {meta.id} does not exist for system {document.system!r}")
        if queued.status == RunStatus.COMPLETED:  # the agent retried an upload that landed
            return _existing(session, queued, system)
        if meta.external_id:
            other = find_by_external_id(
                session=session, system_id=system.id, external_id=meta.external_id
            )
            if other is not None and other.id != queued.id:
                raise InvalidInput(
                    f"external_id {meta.external_id!r} already belongs to run {other.id}",
                    errors=[{"loc": ["run", "external_id"], "msg": "taken by another run"}],
                )
    elif meta.external_id:
        existing = find_by_external_id(
            session=session, system_id=system.id, external_id=meta.external_id
        )
        if existing is not None:
            return _existing(session, existing, system)
    branch_name = session.get_one(Branch, queued.branch_id).name if queued else meta.branch
    branch = system_service.ensure_branch(session=session, system_id=system.id, name=branch_name)
    testbed = system_service.ensure_testbed(
        session=session, name=meta.testbed, environment=document.environment
    )
    metrics = system_service.ensure_metrics(session=session, system_id=system.id, declared=declared)
    benchmarks = system_service.ensure_benchmarks(
        session=session,
        system_id=system.id,
        variants=[(r.benchmark, dict(r.parameters)) for r in document.results],
    )
    if queued is not None:
        _complete_queued(session=session, document=document, run=queued, testbed_id=testbed.id)
        run = queued
    else:
        inserted = _insert_run(
            session=session,
            document=document,
            system_id=system.id,
            branch_id=branch.id,
            testbed_id=testbed.id,
        )
        if inserted is None:  # lost a race on the external id: the winner's run is the answer
            assert meta.external_id is not None
            found = find_by_external_id(
                session=session, system_id=system.id, external_id=meta.external_id
            )
            assert found is not None
            return _existing(session, found, system)
        run = inserted
    items = [
        (
            benchmarks[(r.benchmark, system_service.params_key(dict(r.parameters)))],
            metrics[m.name],
            m,
        )
        for r in document.results
        for m in r.metrics
    ]
    series = _ensure_series(
        session=session,
        system_id=system.id,
        branch_id=branch.id,
        testbed_id=testbed.id,
        pairs=list(dict.fromkeys((b.id, mt.id) for b, mt, _ in items)),
    )
    judged = judge.judge_run(session=session, run=run, branch=branch, items=items, series=series)
    return IngestOutcome(run, True, system, branch, testbed.name, judged)


def _existing(session: Session, run: Run, system: System) -> IngestOutcome:
    branch = session.get_one(Branch, run.branch_id)
    testbed = system_service.testbed_name(session=session, testbed_id=run.testbed_id)
    return IngestOutcome(run, False, system, branch, testbed)
