"""Judge every measurement of a run against its series and store both, set-wise."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import insert
from sqlalchemy.orm import Session

from benchdash.regression import engine
from benchdash.regression.explain import explain
from benchdash.results import history
from benchdash.results.models import Measurement, Verdict
from benchdash.results.read import series_url
from benchdash.results.schemas import MetricIn, VerdictRead
from benchdash.runs.models import Run
from benchdash.systems import service as system_service
from benchdash.systems.models import Benchmark, Branch, Metric

HISTORY_POINTS = engine.HISTORY_FOR_Z


@dataclass(frozen=True)
class Judged:
    """One stored measurement with its verdict, as computed (no need to read it back)."""

    measurement_id: int
    verdict_id: int
    series_id: int
    benchmark: Benchmark
    metric: Metric
    stats: engine.SampleStats
    samples: list[float]
    verdict: engine.Verdict
    explanation: str

    def read(self, system: str, branch: str) -> VerdictRead:
        """The wire form of this measurement and its verdict."""
        b, m, st, v = self.benchmark, self.metric, self.stats, self.verdict
        base = v.baseline
        return VerdictRead(
            measurement_id=self.measurement_id,
            benchmark=b.name,
            parameters=b.parameters,
            params_key=b.params_key,
            metric=m.name,
            unit=m.unit,
            direction=m.direction,
            value=st.value,
            n=st.n,
            mean=st.mean,
            median=st.median,
            stddev=st.stddev,
            min=st.min,
            max=st.max,
            cv=st.cv,
            outliers_removed=st.outliers_removed,
            samples=self.samples,
            baseline=base.value if base else None,
            baseline_run_ids=list(base.run_ids) if base else [],
            baseline_source=base.source if base else None,
            change_pct=v.change_pct,
            p_value=v.p_value,
            z_score=v.z_score,
            gate=v.gate,
            level=v.level,
            warn_threshold=v.thresholds.warn,
            fail_threshold=v.thresholds.fail,
            explanation=self.explanation,
            series_url=series_url(system, b.name, b.params_key, m.name, branch),
        )


def _histories(
    session: Session, run: Run, branch: Branch, keys: list[history.SeriesKey]
) -> dict[history.SeriesKey, list[history.Point]]:
    """Each series' recent points on the branch, else on its base branch (a new branch)."""
    assert run.testbed_id is not None
    before = (run.started_at, run.id)
    points = history.recent_points(
        session=session,
        branch_id=branch.id,
        testbed_id=run.testbed_id,
        keys=keys,
        before=before,
        limit=HISTORY_POINTS,
    )
    missing = [k for k in keys if k not in points]
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
                    limit=HISTORY_POINTS,
                )
            )
    return points


def _verdict(
    stats: engine.SampleStats,
    metric: Metric,
    past: Sequence[history.Point],
    pinned: history.Point | None,
) -> tuple[engine.Verdict, str]:
    def point(p: history.Point) -> engine.BaselinePoint:
        return engine.BaselinePoint(p.run_id, p.value, p.samples)

    baseline = engine.build_baseline([point(p) for p in past], point(pinned) if pinned else None)
    thresholds = engine.Thresholds(metric.warn_threshold, metric.fail_threshold)
    v = engine.judge(
        current=stats,
        direction=metric.direction,
        baseline=baseline,
        thresholds=thresholds,
        history_values=[p.value for p in past],
    )
    text = explain(
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
        cv=stats.cv,
    )
    return v, text


def judge_run(
    *,
    session: Session,
    run: Run,
    branch: Branch,
    items: list[tuple[Benchmark, Metric, MetricIn]],
    series: dict[tuple[int, int], int],
) -> list[Judged]:
    """Summarise, judge and store every measurement of `run` (three statements in all)."""
    keys = list(series)
    points = _histories(session, run, branch, keys)
    pinned: dict[history.SeriesKey, history.Point] = {}
    if branch.pinned_run_id is not None and branch.pinned_run_id != run.id:
        pinned = history.pinned_points(session=session, run_id=branch.pinned_run_id, keys=keys)
    stats = [engine.summarize(m.samples, m.value) for _, _, m in items]
    measurement_ids = session.scalars(
        insert(Measurement).returning(Measurement.id, sort_by_parameter_order=True),
        [
            {
                "run_id": run.id,
                "benchmark_id": b.id,
                "metric_id": mt.id,
                "series_id": series[(b.id, mt.id)],
                "started_at": run.started_at,
                "value": st.value,
                "samples": list(m.samples),
                "n": st.n,
                "mean": st.mean,
                "median": st.median,
                "stddev": st.stddev,
                "min_value": st.min,
                "max_value": st.max,
                "cv": st.cv,
                "outliers_removed": st.outliers_removed,
            }
            for (b, mt, m), st in zip(items, stats, strict=True)
        ],
    ).all()
    verdicts = [
        _verdict(st, mt, points.get((b.id, mt.id), []), pinned.get((b.id, mt.id)))
        for (b, mt, _), st in zip(items, stats, strict=True)
    ]
    verdict_ids = session.scalars(
        insert(Verdict).returning(Verdict.id, sort_by_parameter_order=True),
        [
            {
                "measurement_id": mid,
                "level": v.level.value,
                "baseline_value": v.baseline.value if v.baseline else None,
                "baseline_run_ids": list(v.baseline.run_ids) if v.baseline else [],
                "baseline_source": v.baseline.source if v.baseline else None,
                "change_pct": v.change_pct,
                "p_value": v.p_value,
                "z_score": v.z_score,
                "gate": v.gate,
                "warn_threshold": v.thresholds.warn,
                "fail_threshold": v.thresholds.fail,
                "explanation": text,
            }
            for mid, (v, text) in zip(measurement_ids, verdicts, strict=True)
        ],
    ).all()
    return [
        Judged(mid, vid, series[(b.id, mt.id)], b, mt, st, list(m.samples), v, text)
        for mid, vid, (b, mt, m), st, (v, text) in zip(
            measurement_ids, verdict_ids, items, stats, verdicts, strict=True
        )
    ]
