"""Judge every measurement of a run against its series and store both, set-wise."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.regression import engine
from benchdash.regression.explain import explain
from benchdash.results import history
from benchdash.results.read import series_url
from benchdash.results.resolve import BenchmarkRow, BranchRow, MetricRow
from benchdash.results.schemas import MetricIn, VerdictRead
from benchdash.runs.models import Run
from benchdash.systems import service as system_service

HISTORY_POINTS = engine.HISTORY_FOR_Z


@dataclass(frozen=True)
class Judged:
    """One stored measurement with its verdict, as computed (no need to read it back)."""

    measurement_id: int
    verdict_id: int
    series_id: int
    benchmark: BenchmarkRow
    metric: MetricRow
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
    session: Session, run: Run, branch: BranchRow, keys: list[history.SeriesKey]
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
    metric: MetricRow,
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


_STORE = text(
    """
    WITH m AS (
        INSERT INTO measurement (run_id, benchmark_id, metric_id, series_id, started_at, value,
            samples, n, mean, median, stddev, min_value, max_value, cv, outliers_removed)
        SELECT :run_id, u.b, u.mt, u.s, :started_at, u.v, CAST(u.smp AS float8[]), u.n, u.mean,
            u.med, u.sd, u.mn, u.mx, u.cv, u.outl
        FROM unnest(CAST(:b AS int[]), CAST(:mt AS int[]), CAST(:s AS int[]),
                    CAST(:v AS float8[]), CAST(:smp AS text[]), CAST(:n AS int[]),
                    CAST(:mean AS float8[]), CAST(:med AS float8[]), CAST(:sd AS float8[]),
                    CAST(:mn AS float8[]), CAST(:mx AS float8[]), CAST(:cv AS float8[]),
                    CAST(:outl AS int[]))
            AS u(b, mt, s, v, smp, n, mean, med, sd, mn, mx, cv, outl)
        RETURNING id, series_id
    ), v AS (
        INSERT INTO verdict (measurement_id, level, baseline_value, baseline_run_ids,
            baseline_source, change_pct, p_value, z_score, gate, warn_threshold,
            fail_threshold, explanation)
        SELECT m.id, u.level, u.base, CAST(u.runs AS int[]), u.src, u.chg, u.p, u.z, u.gate,
            u.warn, u.fail, u.expl
        FROM m JOIN unnest(CAST(:s AS int[]), CAST(:level AS text[]), CAST(:base AS float8[]),
                           CAST(:runs AS text[]), CAST(:src AS text[]), CAST(:chg AS float8[]),
                           CAST(:p AS float8[]), CAST(:z AS float8[]), CAST(:gate AS text[]),
                           CAST(:warn AS float8[]), CAST(:fail AS float8[]),
                           CAST(:expl AS text[]))
            AS u(s, level, base, runs, src, chg, p, z, gate, warn, fail, expl)
          ON u.s = m.series_id
        RETURNING id, measurement_id
    )
    SELECT m.series_id, m.id, v.id FROM m JOIN v ON v.measurement_id = m.id
    """
)


def _pg_array(values: Sequence[float | int]) -> str:
    return "{" + ",".join(repr(x) for x in values) + "}"


def judge_run(
    *,
    session: Session,
    run: Run,
    branch: BranchRow,
    items: list[tuple[BenchmarkRow, MetricRow, MetricIn]],
    series: dict[tuple[int, int], int],
) -> list[Judged]:
    """Summarise, judge and store every measurement of `run`: one history query, one insert."""
    keys = list(series)
    points = _histories(session, run, branch, keys)
    pinned: dict[history.SeriesKey, history.Point] = {}
    if branch.pinned_run_id is not None and branch.pinned_run_id != run.id:
        pinned = history.pinned_points(session=session, run_id=branch.pinned_run_id, keys=keys)
    stats = [engine.summarize(m.samples, m.value) for _, _, m in items]
    verdicts = [
        _verdict(st, mt, points.get((b.id, mt.id), []), pinned.get((b.id, mt.id)))
        for (b, mt, _), st in zip(items, stats, strict=True)
    ]
    sids = [series[(b.id, mt.id)] for b, mt, _ in items]
    bases = [v.baseline for v, _ in verdicts]
    rows = session.execute(
        _STORE,
        {
            "run_id": run.id,
            "started_at": run.started_at,
            "s": sids,
            "b": [b.id for b, _, _ in items],
            "mt": [mt.id for _, mt, _ in items],
            "v": [st.value for st in stats],
            "smp": [_pg_array(m.samples) for _, _, m in items],
            "n": [st.n for st in stats],
            "mean": [st.mean for st in stats],
            "med": [st.median for st in stats],
            "sd": [st.stddev for st in stats],
            "mn": [st.min for st in stats],
            "mx": [st.max for st in stats],
            "cv": [st.cv for st in stats],
            "outl": [st.outliers_removed for st in stats],
            "level": [v.level.value for v, _ in verdicts],
            "base": [b.value if b else None for b in bases],
            "runs": [_pg_array(b.run_ids) if b else "{}" for b in bases],
            "src": [b.source if b else None for b in bases],
            "chg": [v.change_pct for v, _ in verdicts],
            "p": [v.p_value for v, _ in verdicts],
            "z": [v.z_score for v, _ in verdicts],
            "gate": [v.gate for v, _ in verdicts],
            "warn": [v.thresholds.warn for v, _ in verdicts],
            "fail": [v.thresholds.fail for v, _ in verdicts],
            "expl": [t for _, t in verdicts],
        },
    ).all()
    ids = {sid: (mid, vid) for sid, mid, vid in rows}
    return [
        Judged(ids[sid][0], ids[sid][1], sid, b, mt, st, list(m.samples), v, t)
        for sid, (b, mt, m), st, (v, t) in zip(sids, items, stats, verdicts, strict=True)
    ]
