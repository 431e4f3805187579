"""Notifications: subscriptions (admin scope to change, trigger scope to read), "send a test",
and each subscription's delivery log."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from benchdash.auth import service as auth_service
from benchdash.deps import OptionalPrincipal, SessionDep
from benchdash.kit.responses import ERRORS
from benchdash.kit.validation import INT4_MAX
from benchdash.notify import service
from benchdash.notify.schemas import (
    DeliveryRead,
    SubscriptionCreate,
    SubscriptionCreated,
    SubscriptionRead,
)

router = APIRouter(prefix="/api/v1/notifications", responses=ERRORS, tags=["notifications"])
SubscriptionIdPath = Annotated[int, Path(ge=1, le=INT4_MAX, description="A subscription id.")]
SystemQuery = Annotated[str | None, Query(pattern=r"^[a-z0-9][a-z0-9_.-]{0,63}$")]


@router.get("/subscriptions", response_model=list[SubscriptionRead])
def read_subscriptions(
    session: SessionDep, principal: OptionalPrincipal, system: SystemQuery = None
) -> list[SubscriptionRead]:
    """Subscriptions, of one system or every one (trigger scope)."""
    auth_service.require(principal, "trigger", system)
    subs = service.list_for(session=session, system=system)
    assert principal is not None
    return [s for s in subs if principal.may("trigger", s.system)]


@router.post("/subscriptions", response_model=SubscriptionCreated, status_code=201)
def create_subscription(
    body: SubscriptionCreate, session: SessionDep, principal: OptionalPrincipal
) -> SubscriptionCreated:
    """Subscribe a webhook, Slack or e-mail channel (admin scope); a webhook's signing secret
    is in this answer only."""
    who = auth_service.require(principal, "admin", body.system)
    return service.create(session=session, body=body, by=who.name)


@router.delete("/subscriptions/{subscription_id}", status_code=204)
def delete_subscription(
    subscription_id: SubscriptionIdPath, session: SessionDep, principal: OptionalPrincipal
) -> None:
    """Delete a subscription and its delivery log (admin scope)."""
    system = service.system_of(session=session, subscription_id=subscription_id)
    who = auth_service.require(principal, "admin", system)
    service.remove(session=session, subscription_id=subscription_id, by=who.name)


@router.post("/subscriptions/{subscription_id}/test", response_model=DeliveryRead, status_code=202)
def send_test(
    subscription_id: SubscriptionIdPath, session: SessionDep, principal: OptionalPrincipal
) -> DeliveryRead:
    """Queue a test notification to this subscription (admin scope); see its log."""
    system = service.system_of(session=session, subscription_id=subscription_id)
    who = auth_service.require(principal, "admin", system)
    return service.send_test(session=session, subscription_id=subscription_id, by=who.name)


@router.get("/subscriptions/{subscription_id}/deliveries", response_model=list[DeliveryRead])
def read_deliveries(
    subscription_id: SubscriptionIdPath,
    session: SessionDep,
    principal: OptionalPrincipal,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> list[DeliveryRead]:
    """The subscription's delivery log, newest first (trigger scope)."""
    system = service.system_of(session=session, subscription_id=subscription_id)
    auth_service.require(principal, "trigger", system)
    return list(service.log(session=session, subscription_id=subscription_id, limit=limit))
