"""Alerts: open on fail, resolve on recovery, acknowledge on request."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select, text, tuple_, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from benchdash.alerts.models import Alert
from benchdash.db import utcnow
from benchdash.kit.errors import Conflict, NotFound
from benchdash.regression import engine
from benchdash.results.models import Measurement, Verdict
from benchdash.runs.models import Run
from benchdash.systems.models import Metric

RECOVERED = {"ok", "improved"}


def apply_verdicts(
    *, session: Session, run: Run, items: Sequence[tuple[Measurement, Verdict]]
) -> None:
    """Open an alert per fail verdict (one active per series); resolve on ok/improved."""
    assert run.testbed_id is not None
    failing = [
        {
            "system_id": run.system_id,
            "benchmark_id": meas.benchmark_id,
            "metric_id": meas.metric_id,
            "branch_id": run.branch_id,
            "testbed_id": run.testbed_id,
            "verdict_id": verdict.id,
            "run_id": run.id,
            "status": "open",
            "opened_at": utcnow(),
        }
        for meas, verdict in items
        if verdict.level == "fail"
    ]
    recovered = [
        (meas.benchmark_id, meas.metric_id) for meas, verdict in items if verdict.level in RECOVERED
    ]
    if failing:
        session.execute(
            insert(Alert)
            .values(failing)
            .on_conflict_do_nothing(
                index_elements=["benchmark_id", "metric_id", "branch_id", "testbed_id"],
                index_where=text("status <> 'resolved'"),
            )
        )
    if recovered:
        _resolve_recovered(session=session, run=run, items=items, series=recovered)


def _resolve_recovered(
    *,
    session: Session,
    run: Run,
    items: Sequence[tuple[Measurement, Verdict]],
    series: list[tuple[int, int]],
) -> None:
    """Resolve active alerts whose series is back within the warn threshold of the baseline
    the alert was opened against (a baseline that has absorbed the regression is no recovery)."""
    value = {(m.benchmark_id, m.metric_id): m.value for m, _ in items}
    active = session.execute(
        select(
            Alert.id,
            Alert.benchmark_id,
            Alert.metric_id,
            Verdict.baseline_value,
            Metric.direction,
            Metric.warn_threshold,
        )
        .join(Verdict, Verdict.id == Alert.verdict_id)
        .join(Metric, Metric.id == Alert.metric_id)
        .where(
            tuple_(Alert.benchmark_id, Alert.metric_id).in_(series),
            Alert.branch_id == run.branch_id,
            Alert.testbed_id == run.testbed_id,
            Alert.status != "resolved",
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
            .values(status="resolved", resolved_at=utcnow(), resolved_by_run_id=run.id)
            .execution_options(synchronize_session=False)
        )


def get(*, session: Session, alert_id: int) -> Alert:
    """The alert, or NotFound."""
    alert = session.get(Alert, alert_id)
    if alert is None:
        raise NotFound(f"no alert {alert_id}")
    return alert


def acknowledge(*, session: Session, alert_id: int, by: str) -> Alert:
    """Mark an open alert acknowledged."""
    alert = session.scalar(select(Alert).where(Alert.id == alert_id).with_for_update())
    if alert is None:
        raise NotFound(f"no alert {alert_id}")
    if alert.status == "resolved":
        raise Conflict(f"alert {alert_id} is already resolved")
    if alert.status == "open":
        alert.status = "acknowledged"
        alert.acknowledged_at = utcnow()
        alert.acknowledged_by = by
        session.flush()
    return alert
