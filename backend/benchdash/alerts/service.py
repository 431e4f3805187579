"""Alerts: open on fail, resolve on recovery, acknowledge on request."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select, text, tuple_, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from benchdash.alerts.models import Alert
from benchdash.db import utcnow
from benchdash.kit.errors import Conflict, NotFound
from benchdash.results.models import Measurement, Verdict
from benchdash.runs.models import Run

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
        session.execute(
            update(Alert)
            .where(
                tuple_(Alert.benchmark_id, Alert.metric_id).in_(recovered),
                Alert.branch_id == run.branch_id,
                Alert.testbed_id == run.testbed_id,
                Alert.status != "resolved",
            )
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
