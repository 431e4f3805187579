"""Alerts: acknowledge (the listing lives in `views`); accepted distribution changes."""

from __future__ import annotations

from fastapi import APIRouter

from benchdash.alerts import changes
from benchdash.alerts import service as alert_service
from benchdash.alerts.schemas import AlertAck, ChangeCreate, ChangeRead
from benchdash.auth import service as auth_service
from benchdash.deps import OptionalPrincipal, SessionDep
from benchdash.kit.responses import ERRORS
from benchdash.kit.validation import AlertIdPath, ChangeIdPath

router = APIRouter(prefix="/api/v1", responses=ERRORS)


@router.post("/alerts/{alert_id}/acknowledge", response_model=AlertAck, tags=["alerts"])
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


@router.post(
    "/series/changes",
    response_model=ChangeRead,
    status_code=201,
    tags=["series"],
    name="accept_change",
)
def accept_change(
    body: ChangeCreate, session: SessionDep, principal: OptionalPrincipal
) -> ChangeRead:
    """Accept a step as expected (trigger scope): the baseline restarts at that run."""
    who = auth_service.require(principal, "trigger", body.system)
    change = changes.accept(
        session=session,
        system=body.system,
        benchmark=body.benchmark,
        metric=body.metric,
        params=body.params,
        run_id=body.run_id,
        note=body.note,
        by=who.name,
    )
    return ChangeRead(
        id=change.id,
        run_id=change.run_id,
        note=change.note,
        created_by=change.created_by,
        created_at=change.created_at,
    )


@router.delete("/series/changes/{change_id}", status_code=204, tags=["series"])
def withdraw_change(
    change_id: ChangeIdPath, session: SessionDep, principal: OptionalPrincipal
) -> None:
    """Take an accepted change back (trigger scope)."""
    system = changes.system_of(session=session, change_id=change_id)
    who = auth_service.require(principal, "trigger", system)
    changes.withdraw(session=session, change_id=change_id, by=who.name)
