"""Series reads with server-side downsampling that keeps spikes and every warn/fail point."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import numpy as np
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from tsdownsample import MinMaxLTTBDownsampler

from benchdash.kit.errors import InvalidInput, NotFound
from benchdash.results.models import Measurement, Verdict
from benchdash.runs.models import Run
from benchdash.series.schemas import SeriesPoint, SeriesRead
from benchdash.systems import service as system_service
from benchdash.systems.models import Benchmark, Metric, Testbed

KEEP_LEVELS = {"warn", "fail"}
DETAIL = (
    Run.id,
    Run.commit,
    Run.started_at,
    Measurement.value,
    Measurement.min_value,
    Measurement.max_value,
    Measurement.stddev,
    Measurement.n,
    Verdict.level,
    Verdict.baseline_value,
    Verdict.change_pct,
    Verdict.p_value,
)


def downsample_indices(
    t: np.ndarray, y: np.ndarray, keep: np.ndarray, max_points: int
) -> np.ndarray:
    """MinMaxLTTB indices (tsdownsample) united with the indices in `keep`, sorted."""
    if len(t) <= max_points:
        return np.arange(len(t))
    picked = MinMaxLTTBDownsampler().downsample(  # type: ignore[no-untyped-call]
        t, y, n_out=max_points
    )
    return np.union1d(picked, keep).astype(np.int64)


def _pick_benchmark(
    session: Session, system_id: int, name: str, params: str | None, benchmark_id: int | None
) -> Benchmark:
    q = select(Benchmark).where(Benchmark.system_id == system_id)
    if benchmark_id is not None:
        q = q.where(Benchmark.id == benchmark_id)
    else:
        q = q.where(Benchmark.name == name)
        if params is not None:
            q = q.where(Benchmark.params_key == params)
    found = session.scalars(q).all()
    if not found:
        raise NotFound(f"no benchmark {name!r} with those parameters")
    if len(found) > 1:
        variants = "; ".join(b.params_key for b in found)
        raise InvalidInput(
            f"benchmark {name!r} has several parameter sets, pick one with params: {variants}"
        )
    return found[0]


def read(
    *,
    session: Session,
    system: str,
    benchmark: str,
    metric: str,
    branch: str = "main",
    testbed: str | None = None,
    params: str | None = None,
    benchmark_id: int | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    profile: str | None = None,
    max_points: int = 1000,
) -> SeriesRead:
    """The points of one series in time order, downsampled to about `max_points`."""
    sys_row = system_service.get_by_slug(session=session, slug=system)
    bench = _pick_benchmark(session, sys_row.id, benchmark, params, benchmark_id)
    met = session.scalar(
        select(Metric).where(Metric.system_id == sys_row.id, Metric.name == metric)
    )
    if met is None:
        raise NotFound(f"system {system!r} has no metric {metric!r}")
    br = system_service.find_branch(session=session, system_id=sys_row.id, name=branch)
    if br is None:
        raise NotFound(f"system {system!r} has no branch {branch!r}")
    in_series = (
        Run.branch_id == br.id,
        Measurement.benchmark_id == bench.id,
        Measurement.metric_id == met.id,
    )
    # One pass over the series: its testbeds and when each was last measured.
    last_seen = dict(
        session.execute(
            select(Testbed.name, func.max(Run.started_at))
            .join(Run, Run.testbed_id == Testbed.id)
            .join(Measurement, Measurement.run_id == Run.id)
            .where(*in_series)
            .group_by(Testbed.name)
        )
        .tuples()
        .all()
    )
    testbeds = sorted(last_seen)
    if testbed is None:
        testbed = max(last_seen, key=lambda name: last_seen[name]) if last_seen else None
    elif testbed not in last_seen:
        raise NotFound(f"no points of this series on testbed {testbed!r}")
    where = [
        Run.branch_id == br.id,
        Testbed.name == testbed,
        Measurement.benchmark_id == bench.id,
        Measurement.metric_id == met.id,
    ]
    if since is not None:
        where.append(Run.started_at >= since)
    if until is not None:
        where.append(Run.started_at <= until)
    if profile is not None:
        where.append(Run.profile == profile)

    def points(*extra: Any, columns: tuple[Any, ...] = DETAIL) -> list[Any]:
        q = (
            select(*columns)
            .join(Measurement, Measurement.run_id == Run.id)
            .outerjoin(Verdict, Verdict.measurement_id == Measurement.id)
            .join(Testbed, Testbed.id == Run.testbed_id)
            .where(*where, *extra)
            .order_by(Run.started_at, Run.id)
        )
        return list(session.execute(q).all())

    # First only what downsampling needs; the details of the points kept come after.
    epoch = func.extract("epoch", Run.started_at)
    light = points(columns=(Measurement.id, epoch, Measurement.value, Verdict.level))
    total = len(light)
    if total > max_points:
        ids, t, y, levels = zip(*light, strict=True)
        keep = np.array([i for i, lv in enumerate(levels) if lv in KEEP_LEVELS], dtype=np.int64)
        picked = downsample_indices(
            np.asarray(t, dtype=np.float64), np.asarray(y, dtype=np.float64), keep, max_points
        )
        chosen = [ids[i] for i in picked]
        rows = points(Measurement.id.in_(chosen))
    else:
        rows = points()
    return SeriesRead(
        system=system,
        benchmark=bench.name,
        benchmark_id=bench.id,
        parameters=bench.parameters,
        metric=met.name,
        unit=met.unit,
        direction=met.direction,
        warn_threshold=met.warn_threshold,
        fail_threshold=met.fail_threshold,
        branch=branch,
        testbed=testbed,
        testbeds=list(testbeds),
        total=total,
        downsampled=total > len(rows),
        points=[
            SeriesPoint(
                run_id=r.id,
                commit=r.commit,
                t=r.started_at,
                value=r.value,
                min=r.min_value,
                max=r.max_value,
                stddev=r.stddev,
                n=r.n,
                level=r.level,
                baseline=r.baseline_value,
                change_pct=r.change_pct,
                p_value=r.p_value,
            )
            for r in rows
        ],
    )
