"""System cards (the overview) and the system detail page: a system with its runs, verdicts
and alerts."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from benchdash.alerts import queries as alert_queries
from benchdash.alerts.models import Alert
from benchdash.alerts.states import AlertStatus
from benchdash.results.models import Measurement, Verdict
from benchdash.runs import queries as run_queries
from benchdash.runs.models import Run
from benchdash.runs.schemas import RunSummary
from benchdash.systems import manifest
from benchdash.systems import service as system_service
from benchdash.systems.models import Benchmark, Branch, Metric, System, Testbed
from benchdash.systems.read_models import Sparkline, SystemDetail, SystemRead
from benchdash.systems.schemas import BenchmarkRead, BranchRead

SPARK_POINTS = 30


def _headline(session: Session, system: System) -> Sparkline | None:
    if not system.headline_benchmark or not system.headline_metric:
        return None
    in_series = (
        Run.system_id == system.id,
        Branch.name == "main",
        Benchmark.name == system.headline_benchmark,
        Metric.name == system.headline_metric,
    )
    joined = (
        select(Measurement.benchmark_id)
        .join(Run, Run.id == Measurement.run_id)
        .join(Branch, Branch.id == Run.branch_id)
        .join(Benchmark, Benchmark.id == Measurement.benchmark_id)
        .join(Metric, Metric.id == Measurement.metric_id)
        .where(*in_series)
    )
    # Several parameter sets may share the name: chart the one measured last.
    variant = session.scalar(joined.order_by(Run.started_at.desc(), Run.id.desc()).limit(1))
    if variant is None:
        return None
    rows = session.execute(
        select(Measurement.value, Verdict.change_pct, Verdict.level, Metric.unit, Metric.direction)
        .join(Run, Run.id == Measurement.run_id)
        .join(Branch, Branch.id == Run.branch_id)
        .join(Benchmark, Benchmark.id == Measurement.benchmark_id)
        .join(Metric, Metric.id == Measurement.metric_id)
        .outerjoin(Verdict, Verdict.measurement_id == Measurement.id)
        .where(*in_series, Measurement.benchmark_id == variant)
        .order_by(Run.started_at.desc(), Run.id.desc())
        .limit(SPARK_POINTS)
    ).all()
    return Sparkline(
        benchmark=system.headline_benchmark,
        metric=system.headline_metric,
        unit=rows[0].unit,
        direction=rows[0].direction,
        values=[r.value for r in reversed(rows)],
        latest_change_pct=rows[0].change_pct,
        latest_level=rows[0].level,
    )


def _card(
    session: Session, system: System, latest: RunSummary | None, open_alerts: int
) -> SystemRead:
    return SystemRead(
        slug=system.slug,
        name=system.name,
        language=system.language,
        description=system.description,
        latest_run=latest,
        open_alerts=open_alerts,
        latest_counts=latest.counts if latest else {},
        headline=_headline(session, system),
    )


def _open_alerts(session: Session, system_ids: list[int] | None) -> dict[int, int]:
    q = select(Alert.system_id, func.count()).where(Alert.status == AlertStatus.OPEN)
    if system_ids is not None:
        q = q.where(Alert.system_id.in_(system_ids))
    rows = session.execute(q.group_by(Alert.system_id)).all()
    return {system_id: count for system_id, count in rows}


def card(*, session: Session, system: System) -> SystemRead:
    """The overview card of one system."""
    latest = run_queries.latest_completed(session=session, system_ids=[system.id])
    alerts = _open_alerts(session, [system.id])
    return _card(session, system, latest.get(system.id), alerts.get(system.id, 0))


def cards(*, session: Session) -> list[SystemRead]:
    """Every system's card: the newest runs and the open alerts of all systems in one statement
    each (a per-system query made the overview wait ~16 ms per system)."""
    systems = system_service.list_all(session=session)
    latest = run_queries.latest_completed(session=session)
    alerts = _open_alerts(session, None)
    return [_card(session, s, latest.get(s.id), alerts.get(s.id, 0)) for s in systems]


def detail(*, session: Session, slug: str) -> SystemDetail:
    """A system with everything the system page needs to build its filters and charts."""
    system = system_service.get_by_slug(session=session, slug=slug)
    benchmarks = session.scalars(
        select(Benchmark)
        .where(Benchmark.system_id == system.id)
        .order_by(Benchmark.name, Benchmark.params_key)
    ).all()
    metrics = session.scalars(
        select(Metric).where(Metric.system_id == system.id).order_by(Metric.name)
    ).all()
    branches = session.scalars(
        select(Branch).where(Branch.system_id == system.id).order_by(Branch.name)
    ).all()
    testbeds = session.scalars(
        select(Testbed.name)
        .join(Run, Run.testbed_id == Testbed.id)
        .where(Run.system_id == system.id)
        .group_by(Testbed.name)
        .order_by(Testbed.name)
    ).all()
    measured: dict[int, list[str]] = {}
    pairs = session.execute(
        select(Measurement.benchmark_id, Metric.name)
        .join(Metric, Metric.id == Measurement.metric_id)
        .where(Metric.system_id == system.id)
        .distinct()
        .order_by(Metric.name)
    ).all()
    for bench_id, metric_name in pairs:
        measured.setdefault(bench_id, []).append(metric_name)
    base = card(session=session, system=system)
    nxt = manifest.next_scheduled(system)
    return SystemDetail(
        **base.model_dump(),
        profiles=(system.manifest or {}).get("profiles", {}),
        next_scheduled_at=nxt[0] if nxt else None,
        next_scheduled_profile=nxt[1] if nxt else None,
        benchmarks=[
            BenchmarkRead(
                id=b.id,
                name=b.name,
                parameters=b.parameters,
                params_key=b.params_key,
                metrics=measured.get(b.id, []),
            )
            for b in benchmarks
        ],
        metrics=[system_service.metric_read(m) for m in metrics],
        branches=[
            BranchRead(name=b.name, base_branch=b.base_branch, pinned_run_id=b.pinned_run_id)
            for b in branches
        ],
        testbeds=list(testbeds),
        alerts=alert_queries.list_alerts(
            session=session, status=[AlertStatus.OPEN, AlertStatus.ACKNOWLEDGED], system=slug
        ),
    )
