"""Write a run's measurements and verdicts in one statement (arrays unnested, CTE chained).

Each measurement carries copies of its verdict's level and stage, baseline, change and p-value
(for series reads: no verdict lookup per point); each verdict its measurement's `started_at`,
the partition key its foreign key needs.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import update
from sqlalchemy.orm import Session

from benchdash.kit.arrays import typed_text
from benchdash.regression import engine
from benchdash.regression.model import Stage, UploadVerdict
from benchdash.results.models import Measurement, Verdict
from benchdash.results.resolve import BenchmarkRow, MetricRow
from benchdash.results.schemas import MetricIn
from benchdash.runs.models import Run

_STORE = typed_text(
    """
    WITH m AS (
        INSERT INTO measurement (run_id, benchmark_id, metric_id, series_id, started_at, value,
            samples, n, mean, median, stddev, min_value, max_value, cv, outliers_removed,
            level, stage, baseline_value, change_pct, p_value, chart_copied)
        SELECT :run_id, u.b, u.mt, u.s, :started_at, u.v, CAST(u.smp AS float8[]), u.n, u.mean,
            u.med, u.sd, u.mn, u.mx, u.cv, u.outl, u.level, u.stage, u.base, u.chg, u.p, true
        FROM unnest(CAST(:b AS int[]), CAST(:mt AS int[]), CAST(:s AS int[]),
                    CAST(:v AS float8[]), CAST(:smp AS text[]), CAST(:n AS int[]),
                    CAST(:mean AS float8[]), CAST(:med AS float8[]), CAST(:sd AS float8[]),
                    CAST(:mn AS float8[]), CAST(:mx AS float8[]), CAST(:cv AS float8[]),
                    CAST(:outl AS int[]), CAST(:level AS text[]), CAST(:stage AS text[]),
                    CAST(:base AS float8[]), CAST(:chg AS float8[]), CAST(:p AS float8[]))
            AS u(b, mt, s, v, smp, n, mean, med, sd, mn, mx, cv, outl, level, stage, base, chg, p)
        RETURNING id, series_id, started_at
    ), v AS (
        INSERT INTO verdict (measurement_id, started_at, level, baseline_value,
            baseline_run_ids, baseline_source, change_pct, p_value, z_score, gate, warn_threshold,
            fail_threshold, explanation, stage, floor_warn, floor_fail, variation, reason)
        SELECT m.id, m.started_at, u.level, u.base, CAST(u.runs AS int[]), u.src, u.chg, u.p,
            u.z, u.gate, u.warn, u.fail, u.expl, u.stage, u.fw, u.ff, u.var, u.reason
        FROM m JOIN unnest(CAST(:s AS int[]), CAST(:level AS text[]), CAST(:base AS float8[]),
                           CAST(:runs AS text[]), CAST(:src AS text[]), CAST(:chg AS float8[]),
                           CAST(:p AS float8[]), CAST(:z AS float8[]), CAST(:gate AS text[]),
                           CAST(:warn AS float8[]), CAST(:fail AS float8[]),
                           CAST(:expl AS text[]), CAST(:stage AS text[]),
                           CAST(:fw AS float8[]), CAST(:ff AS float8[]),
                           CAST(:var AS float8[]), CAST(:reason AS text[]))
            AS u(s, level, base, runs, src, chg, p, z, gate, warn, fail, expl, stage, fw, ff, var,
                 reason)
          ON u.s = m.series_id
        RETURNING id, measurement_id
    )
    SELECT m.series_id, m.id, v.id FROM m JOIN v ON v.measurement_id = m.id
    """
)


def _pg_array(values: Sequence[float | int]) -> str:
    return "{" + ",".join(repr(x) for x in values) + "}"


def stage_of(verdict: UploadVerdict) -> Stage | None:
    """The stage a new point starts in: suspected when its change crossed the floors."""
    return Stage.SUSPECTED if verdict.suspected else None


def store(
    *,
    session: Session,
    run: Run,
    items: Sequence[tuple[BenchmarkRow, MetricRow, MetricIn]],
    series_ids: Sequence[int],
    stats: Sequence[engine.SampleStats],
    verdicts: Sequence[UploadVerdict],
    texts: Sequence[str],
) -> dict[int, tuple[int, int]]:
    """Insert the measurements and verdicts; returns series id -> (measurement, verdict) ids."""
    bases = [v.baseline for v in verdicts]
    rows = session.execute(
        _STORE,
        {
            "run_id": run.id,
            "started_at": run.started_at,
            "s": list(series_ids),
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
            "level": [v.level.value for v in verdicts],
            "base": [b.value if b else None for b in bases],
            "runs": [_pg_array(b.run_ids) if b else "{}" for b in bases],
            "src": [b.source if b else None for b in bases],
            "chg": [v.change_pct for v in verdicts],
            "p": [v.p_value for v in verdicts],
            "z": [v.z_score for v in verdicts],
            "gate": [v.gate for v in verdicts],
            "warn": [v.floors.configured.warn for v in verdicts],
            "fail": [v.floors.configured.fail for v in verdicts],
            "expl": list(texts),
            "stage": [stage_of(v) for v in verdicts],
            "fw": [v.floors.warn for v in verdicts],
            "ff": [v.floors.fail for v in verdicts],
            "var": [v.floors.variation for v in verdicts],
            "reason": [v.reason for v in verdicts],
        },
    ).all()
    return {sid: (mid, vid) for sid, mid, vid in rows}


def set_stage(*, session: Session, verdict_id: int, stage: Stage, note: str) -> None:
    """Move a stored verdict (and its measurement's copy) to `stage`, its explanation + note."""
    moved = session.execute(
        update(Verdict)
        .where(Verdict.id == verdict_id)
        .values(stage=stage, explanation=Verdict.explanation + note)
        .returning(Verdict.measurement_id, Verdict.started_at)
        .execution_options(synchronize_session=False)
    ).first()
    if moved is None:
        return
    measurement_id, started_at = moved
    session.execute(  # the partition key bounds the update to one partition
        update(Measurement)
        .where(Measurement.id == measurement_id, Measurement.started_at == started_at)
        .values(stage=stage)
        .execution_options(synchronize_session=False)
    )
