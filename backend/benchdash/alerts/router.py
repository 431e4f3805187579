"""Alerts: acknowledge (the listing lives in `views`)."""

from __future__ import annotations

from fastapi import APIRouter

from benchdash.alerts import service as alert_service
from benchdash.alerts.schemas import AlertAck
from benchdash.auth import service as auth_service
from benchdash.deps import OptionalPrincipal, SessionDep
from benchdash.kit.responses import ERRORS
from benchdash.kit.validation import AlertIdPath

router = APIRouter(prefix="/api/v1/alerts", tags=["alerts"], responses=ERRORS)


@router.post("/{alert_id}/acknowledge", response_model=AlertAck)
def acknowledge_alert(
    alert_id: AlertIdPath, session: SessionDep, principal: OptionalPrincipal
) -> AlertAck:
    """Acknowledge an open alert (signed-in user, or a token with trigger or admin scope)."""
    system = alert_service.system_of(session=session, alert_id=alert_id)
    who = auth_service.require(principal, "trigger", system)
    alert = alert_service.acknowledge(session=session, alert_id=alert_id, by=who.name)
    return AlertAck(
        id=alert.id,
        status=alert.status,
        acknowledged_at=alert.acknowledged_at,
        acknowledged_by=alert.acknowledged_by,
    )
