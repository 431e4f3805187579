"""Notifications: subscriptions (an admin manages a system's; a signed-in user subscribes
themselves and sees and removes only their own), "send a test", and each subscription's
delivery log."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from benchdash.auth import service as auth_service
from benchdash.auth.service import Principal
from benchdash.deps import OptionalPrincipal, SessionDep
from benchdash.kit import paths  # noqa: F401  (registers the `id` path convertor)
from benchdash.kit.errors import Forbidden
from benchdash.kit.responses import ERRORS
from benchdash.kit.validation import INT4_MAX
from benchdash.notify import pause, service
from benchdash.notify.schemas import (
    DeliveryRead,
    MySubscriptionCreate,
    SubscriptionCreate,
    SubscriptionCreated,
    SubscriptionRead,
)

router = APIRouter(prefix="/api/v1/notifications", responses=ERRORS, tags=["notifications"])
SubscriptionIdPath = Annotated[int, Path(ge=1, le=INT4_MAX, description="A subscription id.")]
SystemQuery = Annotated[str | None, Query(pattern=r"^[a-z0-9][a-z0-9_.-]{0,63}$")]


def _manager(principal: Principal | None, system: str, owner: str | None) -> Principal:
    """The principal if it owns the subscription or is an admin of its system, else 401/403."""
    if principal is not None and owner is not None and owner == principal.name:
        return principal
    return auth_service.require(principal, "admin", system)


@router.get("/subscriptions", response_model=list[SubscriptionRead])
def read_subscriptions(
    session: SessionDep, principal: OptionalPrincipal, system: SystemQuery = None
) -> list[SubscriptionRead]:
    """Subscriptions, of one system or every one: all of a system for its admins, one's own
    for anyone else (trigger scope: a signed-in user)."""
    who = auth_service.require(principal, "trigger", system)
    subs = service.list_for(session=session, system=system)
    return [s for s in subs if who.may("admin", s.system) or s.owner == who.name]


@router.post("/subscriptions/mine", response_model=SubscriptionRead, status_code=201)
def create_my_subscription(
    body: MySubscriptionCreate, session: SessionDep, principal: OptionalPrincipal
) -> SubscriptionRead:
    """Subscribe yourself (a signed-in user) to a system's events by e-mail to your address;
    you see and remove it, as its admins do."""
    who = auth_service.require(principal, "trigger", body.system)
    if not who.is_user:
        raise Forbidden("sign in to subscribe yourself: a token has no one to send e-mail to")
    return service.create_mine(session=session, body=body, owner=who.name)


@router.post("/subscriptions", response_model=SubscriptionCreated, status_code=201)
def create_subscription(
    body: SubscriptionCreate, session: SessionDep, principal: OptionalPrincipal
) -> SubscriptionCreated:
    """Subscribe a webhook, Slack or e-mail channel (admin scope); a webhook's signing secret
    is in this answer only."""
    who = auth_service.require(principal, "admin", body.system)
    return service.create(session=session, body=body, by=who.name)


@router.delete("/subscriptions/{subscription_id:id}", status_code=204)  # kit/paths.py
def delete_subscription(
    subscription_id: SubscriptionIdPath, session: SessionDep, principal: OptionalPrincipal
) -> None:
    """Delete a subscription and its delivery log (its owner, or an admin of its system)."""
    who = _manager(principal, *service.owner_of(session=session, subscription_id=subscription_id))
    service.remove(session=session, subscription_id=subscription_id, by=who.name)


@router.post("/subscriptions/{subscription_id}/test", response_model=DeliveryRead, status_code=202)
def send_test(
    subscription_id: SubscriptionIdPath, session: SessionDep, principal: OptionalPrincipal
) -> DeliveryRead:
    """Queue a test notification to this subscription (its owner or an admin); see its log."""
    who = _manager(principal, *service.owner_of(session=session, subscription_id=subscription_id))
    return service.send_test(session=session, subscription_id=subscription_id, by=who.name)


@router.post("/subscriptions/{subscription_id}/resume", response_model=SubscriptionRead)
def resume_subscription(
    subscription_id: SubscriptionIdPath, session: SessionDep, principal: OptionalPrincipal
) -> SubscriptionRead:
    """Resume a subscription paused for failing (its owner or an admin): its events are queued
    again and its count of failures starts from zero; 409 when it is not paused."""
    who = _manager(principal, *service.owner_of(session=session, subscription_id=subscription_id))
    pause.resume(session=session, subscription_id=subscription_id, by=who.name)
    return service.read(session=session, subscription_id=subscription_id)


@router.get("/subscriptions/{subscription_id}/deliveries", response_model=list[DeliveryRead])
def read_deliveries(
    subscription_id: SubscriptionIdPath,
    session: SessionDep,
    principal: OptionalPrincipal,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> list[DeliveryRead]:
    """The subscription's delivery log, newest first (its owner, or an admin of its system)."""
    _manager(principal, *service.owner_of(session=session, subscription_id=subscription_id))
    return list(service.log(session=session, subscription_id=subscription_id, limit=limit))
