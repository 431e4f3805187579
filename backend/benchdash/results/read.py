"""Read side of results: measurements with their verdicts, shaped for the API."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from sqlalchemy import BigInteger, any_, bindparam, func, select, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

from benchdash.results.models import Measurement, SeriesRestart, Verdict
from benchdash.results.schemas import VerdictRead
from benchdash.systems.models import Benchmark, Metric


def series_url(system: str, benchmark: str, params_key: str, metric: str, branch: str) -> str:
    """The UI path of a series' chart (`params` is the canonical JSON of the parameters)."""
    query = {"benchmark": benchmark, "metric": metric, "branch": branch}
    if params_key != "{}":
        query["params"] = params_key
    return f"/systems/{system}?{urlencode(query)}"


@dataclass(frozen=True, slots=True)
class Compared:
    """A measurement as the compare view needs it: its series, value, samples and thresholds."""

    run_id: int
    benchmark: str
    parameters: dict[str, Any]
    params_key: str
    metric: str
    unit: str
    direction: str
    value: float
    samples: list[float]
    warn_threshold: float
    fail_threshold: float


def compared(*, session: Session, run_ids: list[int]) -> list[Compared]:
    """Every measurement of the runs with only what a comparison reads, in one statement."""
    rows = session.execute(
        select(
            Measurement.run_id,
            Benchmark.name,
            Benchmark.parameters,
            Benchmark.params_key,
            Metric.name,
            Metric.unit,
            Metric.direction,
            Measurement.value,
            Measurement.samples,
            Verdict.warn_threshold,
            Verdict.fail_threshold,
        )
        .join(Verdict, Verdict.measurement_id == Measurement.id)
        .join(Benchmark, Benchmark.id == Measurement.benchmark_id)
        .join(Metric, Metric.id == Measurement.metric_id)
        .where(Measurement.run_id.in_(run_ids))
    ).all()
    out = []
    for run_id, bench, parameters, params_key, metric, unit, direction, value, *rest in rows:
        samples, warn, fail = rest
        out.append(
            Compared(
                run_id=run_id,
                benchmark=bench,
                parameters=parameters,
                params_key=params_key,
                metric=metric,
                unit=unit,
                direction=direction,
                value=value,
                samples=list(samples or []),
                warn_threshold=warn,
                fail_threshold=fail,
            )
        )
    return out


def verdicts_for_run(
    *, session: Session, run_id: int, system: str, branch: str
) -> list[VerdictRead]:
    """Every measurement of a run with its verdict, ordered by benchmark then metric."""
    rows = session.execute(
        select(Measurement, Verdict, Benchmark, Metric, SeriesRestart.note)
        .join(Verdict, Verdict.measurement_id == Measurement.id)
        .outerjoin(
            SeriesRestart,
            (SeriesRestart.series_id == Measurement.series_id)
            & (SeriesRestart.run_id == Measurement.run_id),
        )
        .join(Benchmark, Benchmark.id == Measurement.benchmark_id)
        .join(Metric, Metric.id == Measurement.metric_id)
        .where(Measurement.run_id == run_id)
        .order_by(Benchmark.name, Benchmark.params_key, Metric.name)
    ).all()
    return [
        VerdictRead(
            measurement_id=m.id,
            benchmark=b.name,
            parameters=b.parameters,
            params_key=b.params_key,
            metric=mt.name,
            unit=mt.unit,
            direction=mt.direction,
            value=m.value,
            n=m.n,
            mean=m.mean,
            median=m.median,
            stddev=m.stddev,
            min=m.min_value,
            max=m.max_value,
            cv=m.cv,
            outliers_removed=m.outliers_removed,
            samples=list(m.samples or []),
            baseline=v.baseline_value,
            baseline_run_ids=list(v.baseline_run_ids or []),
            baseline_source=v.baseline_source,
            change_pct=v.change_pct,
            p_value=v.p_value,
            z_score=v.z_score,
            gate=v.gate,
            level=v.level,
            stage=v.stage,
            warn_threshold=v.warn_threshold,
            fail_threshold=v.fail_threshold,
            floor_warn=v.floor_warn,
            floor_fail=v.floor_fail,
            variation=v.variation,
            reason=v.reason,
            accepted_change=note,
            explanation=v.explanation,
            series_url=series_url(system, b.name, b.params_key, mt.name, branch),
        )
        for m, v, b, mt, note in rows
    ]


def level_counts(*, session: Session, run_ids: list[int]) -> dict[int, dict[str, int]]:
    """Verdict counts by level for each run."""
    if not run_ids:
        return {}
    rows = session.execute(
        select(Measurement.run_id, Verdict.level, func.count())
        .join(Verdict, Verdict.measurement_id == Measurement.id)
        .where(Measurement.run_id == any_(bindparam("run_ids", run_ids, type_=ARRAY(BigInteger))))
        .group_by(Measurement.run_id, Verdict.level)
    ).all()
    out: dict[int, Counter[str]] = {}
    for run_id, level, count in rows:
        out.setdefault(run_id, Counter())[level] = count
    return {k: dict(v) for k, v in out.items()}


# The newest accepted point of each series of a system's branch (one index probe per series).
_NEWEST_STAGES = text(
    """SELECT newest.stage, newest.level FROM series s JOIN branch b ON b.id = s.branch_id
    CROSS JOIN LATERAL (
        SELECT m.stage, m.level FROM measurement m JOIN run r ON r.id = m.run_id
        WHERE m.series_id = s.id AND r.accepted
        ORDER BY m.started_at DESC, m.run_id DESC LIMIT 1) newest
    WHERE s.system_id = :system AND b.name = :branch"""
)


_NOT_JUDGED = frozenset({"learning", "no_baseline", None})


def branch_stages(*, session: Session, system_id: int, branch: str) -> Counter[str | None]:
    """How many of the branch's measured series are at each stage in their newest point
    (None: judged and not suspected), and under the key "judged" how many of those newest
    points were judged at all (not learning, not without a baseline). Empty when the branch
    has no points."""
    rows = session.execute(_NEWEST_STAGES, {"system": system_id, "branch": branch}).all()
    counts: Counter[str | None] = Counter(stage for stage, _ in rows)
    judged = sum(level not in _NOT_JUDGED for _, level in rows)
    if judged:
        counts["judged"] = judged
    return counts
