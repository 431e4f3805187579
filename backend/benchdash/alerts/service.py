"""Alerts: open on fail, resolve on recovery, acknowledge on request."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import ARRAY, Integer, cast, func, select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from benchdash.alerts.models import Alert
from benchdash.alerts.states import AlertStatus
from benchdash.db import utcnow
from benchdash.kit.errors import Conflict, NotFound
from benchdash.regression import engine
from benchdash.regression.engine import Level
from benchdash.results.judge import Judged
from benchdash.results.models import Verdict
from benchdash.runs.models import Run
from benchdash.systems.models import Metric, System

RECOVERED = {Level.OK, Level.IMPROVED}


def apply_verdicts(
    *, session: Session, run: Run, judged: Sequence[Judged], active_alerts: bool = True
) -> None:
    """Open an alert per fail verdict (one active per series); resolve on ok/improved.

    `active_alerts=False` (the series of this run have none) skips the look for recoveries.
    """
    assert run.testbed_id is not None
    failing = [
        {
            "system_id": run.system_id,
            "benchmark_id": j.benchmark.id,
            "metric_id": j.metric.id,
            "branch_id": run.branch_id,
            "testbed_id": run.testbed_id,
            "verdict_id": j.verdict_id,
            "run_id": run.id,
            "status": AlertStatus.OPEN,
            "opened_at": utcnow(),
        }
        for j in judged
        if j.verdict.level == Level.FAIL
    ]
    recovered = [(j.benchmark.id, j.metric.id) for j in judged if j.verdict.level in RECOVERED]
    if failing:
        session.execute(
            insert(Alert)
            .values(failing)
            .on_conflict_do_nothing(
                index_elements=["benchmark_id", "metric_id", "branch_id", "testbed_id"],
                index_where=text("status <> 'resolved'"),
            )
        )
    if recovered and active_alerts:
        _resolve_recovered(session=session, run=run, judged=judged, series=recovered)


def _resolve_recovered(
    *,
    session: Session,
    run: Run,
    judged: Sequence[Judged],
    series: list[tuple[int, int]],
) -> None:
    """Resolve active alerts whose series is back within the warn threshold of the baseline
    the alert was opened against (a baseline that has absorbed the regression is no recovery)."""
    value = {(j.benchmark.id, j.metric.id): j.stats.value for j in judged}
    keys = (
        select(
            func.unnest(cast([b for b, _ in series], ARRAY(Integer))).label("b"),
            func.unnest(cast([m for _, m in series], ARRAY(Integer))).label("m"),
        )
    ).subquery()
    active = session.execute(
        select(
            Alert.id,
            Alert.benchmark_id,
            Alert.metric_id,
            Verdict.baseline_value,
            Metric.direction,
            Metric.warn_threshold,
        )
        .join(keys, (keys.c.b == Alert.benchmark_id) & (keys.c.m == Alert.metric_id))
        .join(Verdict, Verdict.id == Alert.verdict_id)
        .join(Metric, Metric.id == Alert.metric_id)
        .where(
            Alert.system_id == run.system_id,
            Alert.branch_id == run.branch_id,
            Alert.testbed_id == run.testbed_id,
            Alert.status != AlertStatus.RESOLVED,
        )
    ).all()
    back = [
        a.id
        for a in active
        if a.baseline_value is None
        or engine.change_worse(value[(a.benchmark_id, a.metric_id)], a.baseline_value, a.direction)
        * 100
        < a.warn_threshold
    ]
    if back:
        session.execute(
            update(Alert)
            .where(Alert.id.in_(back))
            .values(status=AlertStatus.RESOLVED, resolved_at=utcnow(), resolved_by_run_id=run.id)
            .execution_options(synchronize_session=False)
        )


def system_of(*, session: Session, alert_id: int) -> str:
    """The slug of the alert's system, or NotFound (checked before authorising)."""
    slug = session.scalar(
        select(System.slug).join(Alert, Alert.system_id == System.id).where(Alert.id == alert_id)
    )
    if slug is None:
        raise NotFound(f"no alert {alert_id}")
    return slug


def acknowledge(*, session: Session, alert_id: int, by: str) -> Alert:
    """Mark an open alert acknowledged."""
    alert = session.scalar(select(Alert).where(Alert.id == alert_id).with_for_update())
    if alert is None:
        raise NotFound(f"no alert {alert_id}")
    if alert.status == AlertStatus.RESOLVED:
        raise Conflict(f"alert {alert_id} is already resolved")
    if alert.status == AlertStatus.OPEN:
        alert.status = AlertStatus.ACKNOWLEDGED
        alert.acknowledged_at = utcnow()
        alert.acknowledged_by = by
        session.flush()
    return alert
