"""Judge every measurement of a run against its series (the two-stage detector) and store both.

The history of every series of the document comes in one query (`history`), each new point
is assessed by `regression.detector.assess` — the same code `benchdash-server replay` runs —
and the measurements and verdicts are written in one statement (`store`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy.orm import Session

from benchdash.regression import detector, engine
from benchdash.regression.explain import explain_verdict
from benchdash.regression.floors import MIN_HISTORY
from benchdash.regression.model import Action, AlertKind, Assessment, Mode, OpenAlert, Point, Stage
from benchdash.results import history, store
from benchdash.results.read import series_url
from benchdash.results.resolve import BenchmarkRow, BranchRow, MetricRow
from benchdash.results.schemas import MetricIn, VerdictRead
from benchdash.runs.models import Run
from benchdash.systems import service as system_service


@dataclass(frozen=True, kw_only=True)
class Judged:
    """One stored measurement with its assessment, as computed (no need to read it back)."""

    measurement_id: int
    verdict_id: int
    series_id: int
    benchmark: BenchmarkRow
    metric: MetricRow
    stats: engine.SampleStats
    samples: list[float]
    point: Point
    assessment: Assessment
    explanation: str

    @property
    def stage(self) -> Stage | None:
        """Confirmed when this upload's own decision names it a step's first bad run."""
        d = self.assessment.decision
        if (
            d.action is Action.OPEN
            and d.kind == AlertKind.STEP
            and d.first_bad_run_id == self.point.run_id
        ):
            return Stage.CONFIRMED
        return store.stage_of(self.assessment.verdict)

    def read(self, system: str, branch: str) -> VerdictRead:
        """The wire form of this measurement and its verdict."""
        b, m, st, v = self.benchmark, self.metric, self.stats, self.assessment.verdict
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
            stage=self.stage,
            warn_threshold=v.floors.configured.warn,
            fail_threshold=v.floors.configured.fail,
            floor_warn=v.floors.warn,
            floor_fail=v.floors.fail,
            variation=v.floors.variation,
            reason=v.reason,
            explanation=self.explanation,
            series_url=series_url(system, b.name, b.params_key, m.name, branch),
        )


def _histories(
    session: Session, run: Run, branch: BranchRow, keys: list[history.SeriesKey]
) -> tuple[dict[history.SeriesKey, list[Point]], set[history.SeriesKey]]:
    """Each series' recent points on the branch; a series with fewer than MIN_HISTORY of its
    own is judged on its base branch's instead (a young feature branch), when that has more.
    Returns the points and the keys judged on the base."""
    assert run.testbed_id is not None
    before = (run.started_at, run.id)
    limit = detector.HISTORY_NEEDED
    points = history.recent_points(
        session=session,
        branch_id=branch.id,
        testbed_id=run.testbed_id,
        keys=keys,
        before=before,
        limit=limit,
    )
    young = [k for k in keys if len(points.get(k, ())) < MIN_HISTORY]
    if young and branch.base_branch:
        base = system_service.find_branch(
            session=session, system_id=run.system_id, name=branch.base_branch
        )
        if base is not None:
            on_base = history.recent_points(
                session=session,
                branch_id=base.id,
                testbed_id=run.testbed_id,
                keys=young,
                before=before,
                limit=limit,
            )
            judged = {k for k, pts in on_base.items() if len(pts) > len(points.get(k, ()))}
            points.update({k: on_base[k] for k in judged})
            return points, judged
    return points, set()


def judge_run(
    *,
    session: Session,
    run: Run,
    branch: BranchRow,
    items: list[tuple[BenchmarkRow, MetricRow, MetricIn]],
    series: dict[tuple[int, int], int],
    mode: Mode,
    open_alerts: Mapping[int, OpenAlert],
) -> list[Judged]:
    """Summarise, assess and store every measurement of `run`."""
    keys = list(series)
    points, on_base = _histories(session, run, branch, keys)
    pinned: dict[history.SeriesKey, Point] = {}
    if branch.pinned_run_id is not None and branch.pinned_run_id != run.id:
        pinned = history.pinned_points(session=session, run_id=branch.pinned_run_id, keys=keys)
    stats = [engine.summarize(m.samples, m.value) for _, _, m in items]
    news = [Point(run.id, st.value, run.commit, tuple(st.clean)) for st in stats]
    assessments = [
        detector.assess(
            points.get((b.id, mt.id), []),
            new,
            direction=mt.direction,
            thresholds=engine.Thresholds(mt.warn_threshold, mt.fail_threshold),
            alert=open_alerts.get(series[(b.id, mt.id)]),
            pinned=pinned.get((b.id, mt.id)),
            mode=mode,
        )
        for (b, mt, _), new in zip(items, news, strict=True)
    ]
    texts = [
        explain_verdict(
            a.verdict,
            unit=mt.unit,
            direction=mt.direction,
            base_branch=branch.base_branch if (b.id, mt.id) in on_base else None,
        )
        for (b, mt, _), a in zip(items, assessments, strict=True)
    ]
    sids = [series[(b.id, mt.id)] for b, mt, _ in items]
    ids = store.store(
        session=session,
        run=run,
        items=items,
        series_ids=sids,
        stats=stats,
        verdicts=[a.verdict for a in assessments],
        texts=texts,
    )
    return [
        Judged(
            measurement_id=ids[sid][0],
            verdict_id=ids[sid][1],
            series_id=sid,
            benchmark=b,
            metric=mt,
            stats=st,
            samples=list(m.samples),
            point=new,
            assessment=a,
            explanation=t,
        )
        for sid, (b, mt, m), st, new, a, t in zip(
            sids, items, stats, news, assessments, texts, strict=True
        )
    ]
