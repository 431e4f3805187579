"""Triage of an alert summary, applied to all of its alerts: acknowledge, accept as expected
(each series' baseline restarts at its step, `alerts.changes.accept`, which resolves the
alerts and so the summary), mark invalid (its open alerts are acknowledged: they stay until
their series recover), assign to a person, link an issue. Each action is audited and locks
the summary's row first, as opening and resolving do."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.orm import Session

from benchdash.alerts import changes
from benchdash.alerts.models import Alert
from benchdash.alerts.states import AlertStatus, Resolution
from benchdash.alerts.summary_model import AlertSummary
from benchdash.audit import service as audit_service
from benchdash.db import utcnow
from benchdash.kit.errors import Conflict, NotFound
from benchdash.systems import service as system_service
from benchdash.systems.models import Benchmark, Metric, System

_ACKNOWLEDGE = text(
    f"""UPDATE alert SET status = '{AlertStatus.ACKNOWLEDGED}', acknowledged_at = now(),
        acknowledged_by = :by WHERE summary_id = :id AND status = '{AlertStatus.OPEN}'
    RETURNING id"""
)


def system_of(*, session: Session, summary_id: int) -> str:
    """The slug of the summary's system, or NotFound (checked before authorising)."""
    return system_service.slug_owning(
        session=session, model=AlertSummary, row_id=summary_id, what="alert summary"
    )


def _lock(session: Session, summary_id: int, *, active: bool = True) -> AlertSummary:
    summary = session.scalar(
        select(AlertSummary).where(AlertSummary.id == summary_id).with_for_update()
    )
    if summary is None:
        raise NotFound(f"no alert summary {summary_id}")
    if active and summary.status == AlertStatus.RESOLVED:
        raise Conflict(f"alert summary {summary_id} is already resolved")
    return summary


def _audit(
    session: Session, summary: AlertSummary, by: str, action: str, detail: Mapping[str, Any]
) -> None:
    summary.triaged_by, summary.triaged_at = by, utcnow()
    slug = session.get_one(System, summary.system_id).slug
    audit_service.record(
        session=session,
        actor=by,
        action=f"alert_summary.{action}",
        target=f"{slug}/alert-summary/{summary.id}",
        detail=dict(detail),
    )
    session.flush()


def _acknowledge(session: Session, summary: AlertSummary, by: str) -> int:
    acknowledged = len(session.execute(_ACKNOWLEDGE, {"id": summary.id, "by": by}).all())
    if summary.status == AlertStatus.OPEN:
        summary.status = AlertStatus.ACKNOWLEDGED
        summary.acknowledged_at, summary.acknowledged_by = utcnow(), by
    return int(acknowledged)


def acknowledge(*, session: Session, summary_id: int, by: str) -> None:
    """Acknowledge the summary and each of its open alerts."""
    summary = _lock(session, summary_id)
    count = _acknowledge(session, summary, by)
    _audit(session, summary, by, "acknowledge", {"alerts": count})


def mark_invalid(*, session: Session, summary_id: int, note: str, by: str) -> None:
    """Say it is no regression (noise, a broken run): resolution `invalid`, open alerts
    acknowledged."""
    summary = _lock(session, summary_id)
    count = _acknowledge(session, summary, by)
    summary.resolution = Resolution.INVALID
    _audit(session, summary, by, "mark_invalid", {"note": note, "alerts": count})


def accept(*, session: Session, summary_id: int, note: str, by: str) -> None:
    """Accept each active alert's step as expected (the series' baseline restarts there, the
    alert resolves); the summary resolves with resolution `accepted`."""
    summary = _lock(session, summary_id)
    summary.resolution = Resolution.ACCEPTED
    rows = session.execute(
        select(Alert.run_id, Benchmark.name, Benchmark.params_key, Metric.name, System.slug)
        .join(Benchmark, Benchmark.id == Alert.benchmark_id)
        .join(Metric, Metric.id == Alert.metric_id)
        .join(System, System.id == Alert.system_id)
        .where(Alert.summary_id == summary_id, Alert.status != AlertStatus.RESOLVED)
        .order_by(Alert.id)
    ).all()
    for run_id, benchmark, params_key, metric, slug in rows:
        changes.accept(
            session=session,
            system=slug,
            benchmark=benchmark,
            metric=metric,
            params=params_key,
            run_id=run_id,
            note=note,
            by=by,
        )
    _audit(session, summary, by, "accept", {"note": note, "alerts": len(rows)})


def update(*, session: Session, summary_id: int, fields: Mapping[str, Any], by: str) -> None:
    """Set (or clear, with null) the assignee and the issue URL given in `fields`."""
    summary = _lock(session, summary_id, active=False)
    for name in ("assignee", "issue_url"):
        if name in fields:
            setattr(summary, name, fields[name])
    _audit(session, summary, by, "update", dict(fields))
