"""A system as its admin sees it: metrics with who last changed their thresholds and when (from
the audit trail), the registered manifest, and settings such as the repository URL."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from benchdash.audit import service as audit_service
from benchdash.audit.models import AuditEvent
from benchdash.systems import bounds
from benchdash.systems import service as system_service
from benchdash.systems.models import Metric, System
from benchdash.systems.schemas import MetricAdmin, ThresholdChange

AUDITED = ("thresholds.set", "bounds.set")


def metrics(*, session: Session, slug: str) -> list[MetricAdmin]:
    """Every metric of the system with its thresholds, bounds and last audited change."""
    system = system_service.get_by_slug(session=session, slug=slug)
    rows = session.scalars(
        select(Metric).where(Metric.system_id == system.id).order_by(Metric.name)
    ).all()
    targets = [f"{slug}/{m.name}" for m in rows]
    events = session.scalars(
        select(AuditEvent)
        .where(AuditEvent.action.in_(AUDITED), AuditEvent.target.in_(targets))
        .order_by(AuditEvent.at.desc(), AuditEvent.id.desc())
    ).all()
    last: dict[str, AuditEvent] = {}
    for e in events:
        last.setdefault(e.target, e)
    out = []
    for m in rows:
        event = last.get(f"{slug}/{m.name}")
        low, high = bounds.effective(m.unit, m.min_value, m.max_value)
        out.append(
            MetricAdmin(
                **system_service.metric_read(m).model_dump(),
                min_value=low,
                max_value=high,
                last_change=None
                if event is None
                else ThresholdChange(
                    by=event.actor, at=event.at, action=event.action, detail=event.detail
                ),
            )
        )
    return out


def set_repository(*, session: Session, system: System, repository: str | None, by: str) -> None:
    """Name (or forget) the system's repository, audited."""
    if system.repository == repository:
        return
    audit_service.record(
        session=session,
        actor=by,
        action="system.repository",
        target=system.slug,
        detail={"from": system.repository, "to": repository},
    )
    system.repository = repository
    session.flush()
