"""Ingest of benchdash/v1 documents: the run, its measurements and their verdicts.

A few statements whatever the document's size: system, branch, testbed, metrics, benchmarks
and series are resolved set-wise; the run row is inserted with ON CONFLICT on its external
id (so concurrent uploads of one document store it once); measurements and verdicts go in
as multi-row INSERT … RETURNING; the history of every series comes in one query
(`results.judge`). The response is built from what was computed, never re-read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import cast

from sqlalchemy import Table, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from benchdash.db import utcnow
from benchdash.kit.errors import InvalidInput, NotFound
from benchdash.regression.model import Mode, OpenAlert
from benchdash.results import ensure, judge, resolve
from benchdash.results.schemas import DocumentIn, MetricIn, ResultIn
from benchdash.runs import lifecycle
from benchdash.runs.models import Run
from benchdash.runs.states import RunStatus
from benchdash.systems import service as system_service
from benchdash.systems.models import Branch, System


@dataclass(kw_only=True)
class IngestOutcome:
    """The stored run, whether this call created it, and (when it did) what was judged."""

    run: Run
    created: bool
    system: str
    branch: str
    testbed: str | None
    judged: list[judge.Judged] = field(default_factory=list)
    mode: Mode = Mode.CI


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
        "accepted": True,
        "cancel_requested": False,
    }
    # Core, not the ORM's bulk insert (which took most of this function's CPU).
    table = cast(Table, Run.__table__)
    stmt = insert(table).values(**values)
    if document.run.external_id:
        stmt = stmt.on_conflict_do_nothing(index_elements=["system_id", "external_id"])
    run_id = session.scalar(stmt.returning(table.c.id))
    # A plain object of the row just written: no ORM identity work on the hot path.
    return None if run_id is None else Run(id=run_id, **values)


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


@dataclass(kw_only=True)
class Prepared:
    """A document's run written and its series resolved, before any judging: the caller reads
    the open alerts of `series_ids` (a higher layer's state) and hands them to `record`."""

    run: Run
    system: str
    branch: resolve.BranchRow
    branch_name: str
    testbed: str
    items: list[tuple[resolve.BenchmarkRow, resolve.MetricRow, MetricIn]]
    series: dict[tuple[int, int], int]
    mode: Mode

    @property
    def series_ids(self) -> list[int]:
        """Every series the document measures."""
        return list(self.series.values())


def prepare(*, session: Session, document: DocumentIn) -> Prepared | IngestOutcome:
    """Validate `document`, resolve (or create) everything it names and write its run, in the
    caller's transaction; the same external id answers with the stored run (an IngestOutcome).

    A document completing a queued run (`run.id`) is runner-executed: its suspected changes are
    confirmed by re-runs; any other upload is CI-fed: confirmed by the series' next runs.
    """
    _check_unique(document.results)
    declared = _declared_metrics(document.results)
    meta = document.run
    queued = _queued(session, document) if meta.id is not None else None
    if isinstance(queued, IngestOutcome):
        return queued
    branch_name = queued.branch_name if queued else meta.branch
    testbed_name = meta.testbed or f"env-{system_service.fingerprint(document.environment)}"
    keyed = [
        (r, (r.benchmark, system_service.params_key(dict(r.parameters)))) for r in document.results
    ]
    pairs = [(variant, m.name) for r, variant in keyed for m in r.metrics]

    def lookup() -> resolve.Resolved:
        return resolve.resolve(
            session=session,
            system=document.system,
            branch=branch_name,
            testbed=testbed_name,
            metrics=list(declared),
            variants=list(dict.fromkeys(v for _, v in keyed)),
        )

    found = lookup()
    if not found.complete(pairs):
        ensure.create_missing(session, document, branch_name, testbed_name, declared)
        found = lookup()
    ensure.check_units(declared, found.metrics)
    ensure.check_bounds(document.results, found.metrics)
    assert found.system_id and found.branch and found.testbed
    branch = found.branch if queued else ensure.base_branch(session, found.branch, meta.base_branch)
    if queued is not None:
        run = queued.run
        _complete_queued(session=session, document=document, run=run, testbed_id=found.testbed[0])
    else:
        inserted = _insert_run(
            session=session,
            document=document,
            system_id=found.system_id,
            branch_id=found.branch.id,
            testbed_id=found.testbed[0],
        )
        if inserted is None:  # this external id is stored already (maybe by a concurrent upload)
            assert meta.external_id is not None
            existing = find_by_external_id(
                session=session, system_id=found.system_id, external_id=meta.external_id
            )
            assert existing is not None
            return _existing(session, existing)
        run = inserted
    items = [
        (found.benchmarks[variant], found.metrics[m.name], m)
        for r, variant in keyed
        for m in r.metrics
    ]
    return Prepared(
        run=run,
        system=document.system,
        branch=branch,
        branch_name=found.branch.name,
        testbed=found.testbed[1],
        items=items,
        series={(b.id, mt.id): found.series[(b.id, mt.id)] for b, mt, _ in items},
        mode=Mode.RUNNER if queued is not None else Mode.CI,
    )


def record(
    *, session: Session, prepared: Prepared, open_alerts: Mapping[int, OpenAlert]
) -> IngestOutcome:
    """Judge and store every measurement of a prepared run, given its series' open alerts."""
    p = prepared
    judged = judge.judge_run(
        session=session,
        run=p.run,
        branch=p.branch,
        items=p.items,
        series=p.series,
        mode=p.mode,
        open_alerts=open_alerts,
    )
    return IngestOutcome(
        run=p.run,
        created=True,
        system=p.system,
        branch=p.branch_name,
        testbed=p.testbed,
        judged=judged,
        mode=p.mode,
    )


@dataclass
class _Queued:
    run: Run
    branch_name: str


def _queued(session: Session, document: DocumentIn) -> _Queued | IngestOutcome:
    """The queued run a runner agent's document completes (or the stored answer of a retry)."""
    meta = document.run
    # The run's row lock serialises concurrent completions (an agent's retries): the second
    # waits for the first to commit, then finds the run completed and answers with it.
    run = session.scalar(
        select(Run)
        .join(System, System.id == Run.system_id)
        .where(Run.id == meta.id, System.slug == document.system)
        .with_for_update(of=Run)
    )
    if run is None:
        raise NotFound(f"run {meta.id} does not exist for system {document.system!r}")
    if run.status == RunStatus.COMPLETED:  # the agent retried an upload that landed
        return _existing(session, run)
    if meta.external_id:
        other = find_by_external_id(
            session=session, system_id=run.system_id, external_id=meta.external_id
        )
        if other is not None and other.id != run.id:
            raise InvalidInput(
                f"external_id {meta.external_id!r} already belongs to run {other.id}",
                errors=[{"loc": ["run", "external_id"], "msg": "taken by another run"}],
            )
    return _Queued(run, session.get_one(Branch, run.branch_id).name)


def _existing(session: Session, run: Run) -> IngestOutcome:
    system = session.get_one(System, run.system_id).slug
    branch = session.get_one(Branch, run.branch_id).name
    testbed = system_service.testbed_name(session=session, testbed_id=run.testbed_id)
    return IngestOutcome(run=run, created=False, system=system, branch=branch, testbed=testbed)
