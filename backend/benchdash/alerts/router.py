"""Alerts: list and acknowledge."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from benchdash.alerts import read as alert_read
from benchdash.alerts import service as alert_service
from benchdash.alerts.schemas import AlertRead
from benchdash.auth import service as auth_service
from benchdash.deps import OptionalPrincipal, ReadAccess, SessionDep
from benchdash.kit.responses import ERRORS
from benchdash.systems.models import System

router = APIRouter(prefix="/api/v1/alerts", tags=["alerts"], responses=ERRORS)


@router.get("", response_model=list[AlertRead], dependencies=[ReadAccess])
def read_alerts(
    session: SessionDep,
    status: Annotated[list[str] | None, Query()] = None,
    system: str | None = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
) -> list[AlertRead]:
    """Alerts, newest first (default: open and acknowledged)."""
    wanted = status or ["open", "acknowledged"]
    return alert_read.list_alerts(session=session, status=wanted, system=system, limit=limit)


@router.post("/{alert_id}/acknowledge", response_model=AlertRead)
def acknowledge_alert(
    alert_id: int, session: SessionDep, principal: OptionalPrincipal
) -> AlertRead:
    """Acknowledge an open alert (signed-in user, or a token with trigger or admin scope)."""
    alert = alert_service.get(session=session, alert_id=alert_id)
    system = session.get(System, alert.system_id)
    assert system is not None
    who = auth_service.require(principal, "trigger", system.slug)
    alert_service.acknowledge(session=session, alert_id=alert_id, by=who.name)
    found = [
        a for a in alert_read.list_alerts(session=session, system=system.slug) if a.id == alert_id
    ]
    return found[0]
