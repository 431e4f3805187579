"""Ingest of benchdash/v1 documents: store the run, its measurements and their verdicts."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from benchdash.alerts import service as alert_service
from benchdash.db import utcnow
from benchdash.kit.errors import InvalidInput, NotFound
from benchdash.regression import engine
from benchdash.regression.explain import explain
from benchdash.results import history
from benchdash.results.models import Measurement, Verdict
from benchdash.results.schemas import DocumentIn, ResultIn
from benchdash.runs import lifecycle
from benchdash.runs.models import Run
from benchdash.systems import service as system_service
from benchdash.systems.models import Branch, Metric


@dataclass
class IngestOutcome:
    """The stored run and whether this call created it."""

    run: Run
    created: bool


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


def _attach_run(
    *, session: Session, document: DocumentIn, system_id: int, branch: Branch, testbed_id: int
) -> Run:
    meta = document.run
    now = utcnow()
    if meta.id is not None:
        run = session.get(Run, meta.id)
        if run is None or run.system_id != system_id:
            raise NotFound(f"run {meta.id} does not exist for system {document.system!r}")
        lifecycle.mark_completed(session=session, run=run)
    else:
        run = Run(system_id=system_id, created_at=now, branch_id=branch.id, status="completed")
        session.add(run)
    run.testbed_id = testbed_id
    run.external_id = meta.external_id or run.external_id
    run.version = meta.version
    run.trigger = meta.trigger if meta.id is None else run.trigger
    run.profile = meta.profile or run.profile
    run.environment = document.environment
    run.configuration = document.configuration
    run.started_at = meta.started_at or run.started_at or now
    run.commit = meta.commit or run.commit
    run.finished_at = meta.finished_at or now
    session.flush()
    return run


def ingest(*, session: Session, document: DocumentIn) -> IngestOutcome:
    """Store one document in the caller's transaction; the same external id returns the old run."""
    _check_unique(document.results)
    declared = _declared_metrics(document.results)
    system = system_service.ensure_system(session=session, slug=document.system)
    if document.run.external_id:
        existing = find_by_external_id(
            session=session, system_id=system.id, external_id=document.run.external_id
        )
        if existing is not None:
            return IngestOutcome(existing, created=False)
    if document.run.id is not None:
        queued = session.get(Run, document.run.id)
        branch_name = document.run.branch
        if queued is not None and queued.system_id == system.id:
            branch_name = session.get_one(Branch, queued.branch_id).name  # the trigger's branch
    else:
        branch_name = document.run.branch
    branch = system_service.ensure_branch(session=session, system_id=system.id, name=branch_name)
    testbed = system_service.ensure_testbed(
        session=session, name=document.run.testbed, environment=document.environment
    )
    metrics = system_service.ensure_metrics(session=session, system_id=system.id, declared=declared)
    benchmarks = system_service.ensure_benchmarks(
        session=session,
        system_id=system.id,
        variants=[(r.benchmark, dict(r.parameters)) for r in document.results],
    )
    run = _attach_run(
        session=session,
        document=document,
        system_id=system.id,
        branch=branch,
        testbed_id=testbed.id,
    )
    rows: list[tuple[Measurement, Metric, engine.SampleStats]] = []
    for r in document.results:
        bench = benchmarks[(r.benchmark, system_service.params_key(dict(r.parameters)))]
        for m in r.metrics:
            st = engine.summarize(m.samples, m.value)
            meas = Measurement(
                run_id=run.id,
                benchmark_id=bench.id,
                metric_id=metrics[m.name].id,
                value=st.value,
                samples=list(m.samples),
                n=st.n,
                mean=st.mean,
                median=st.median,
                stddev=st.stddev,
                min_value=st.min,
                max_value=st.max,
                cv=st.cv,
                outliers_removed=st.outliers_removed,
            )
            rows.append((meas, metrics[m.name], st))
    session.add_all([r[0] for r in rows])
    session.flush()
    judge_run(session=session, run=run, branch=branch, rows=rows)
    return IngestOutcome(run, created=True)


def _history(
    *, session: Session, run: Run, branch: Branch, keys: set[tuple[int, int]]
) -> dict[tuple[int, int], list[engine.BaselinePoint]]:
    assert run.testbed_id is not None
    before = (run.started_at, run.id)
    points = history.recent_points(
        session=session, branch_id=branch.id, testbed_id=run.testbed_id, keys=keys, before=before
    )
    missing = {k for k in keys if k not in points}
    if missing and branch.base_branch:
        base = system_service.find_branch(
            session=session, system_id=run.system_id, name=branch.base_branch
        )
        if base is not None:
            points.update(
                history.recent_points(
                    session=session,
                    branch_id=base.id,
                    testbed_id=run.testbed_id,
                    keys=missing,
                    before=before,
                )
            )
    return points


def judge_run(
    *,
    session: Session,
    run: Run,
    branch: Branch,
    rows: list[tuple[Measurement, Metric, engine.SampleStats]],
) -> list[Verdict]:
    """Compute, store and alert on the verdict of every measurement of a run."""
    keys = {(m.benchmark_id, m.metric_id) for m, _, _ in rows}
    points = _history(session=session, run=run, branch=branch, keys=keys)
    pinned: dict[tuple[int, int], engine.BaselinePoint] = {}
    if branch.pinned_run_id is not None and branch.pinned_run_id != run.id:
        pinned = history.pinned_points(session=session, run_id=branch.pinned_run_id, keys=keys)
    verdicts: list[Verdict] = []
    for meas, metric, st in rows:
        key = (meas.benchmark_id, meas.metric_id)
        past = points.get(key, [])
        baseline = engine.build_baseline(past, pinned.get(key))
        thresholds = engine.Thresholds(metric.warn_threshold, metric.fail_threshold)
        v = engine.judge(
            current=st,
            direction=metric.direction,
            baseline=baseline,
            thresholds=thresholds,
            history_values=[p.value for p in past],
        )
        verdict = Verdict(
            measurement_id=meas.id,
            level=v.level.value,
            baseline_value=baseline.value if baseline else None,
            baseline_run_ids=list(baseline.run_ids) if baseline else [],
            baseline_source=baseline.source if baseline else None,
            change_pct=v.change_pct,
            p_value=v.p_value,
            z_score=v.z_score,
            gate=v.gate,
            warn_threshold=thresholds.warn,
            fail_threshold=thresholds.fail,
            explanation=explain(
                level=v.level,
                change_pct=v.change_pct,
                p_value=v.p_value,
                z_score=v.z_score,
                gate=v.gate,
                warn=thresholds.warn,
                fail=thresholds.fail,
                baseline_run_ids=baseline.run_ids if baseline else (),
                baseline_source=baseline.source if baseline else None,
                unit=metric.unit,
                direction=metric.direction,
                cv=st.cv,
            ),
        )
        verdicts.append(verdict)
    session.add_all(verdicts)
    session.flush()
    alert_service.apply_verdicts(
        session=session,
        run=run,
        items=[(meas, v) for (meas, _, _), v in zip(rows, verdicts, strict=True)],
    )
    return verdicts
