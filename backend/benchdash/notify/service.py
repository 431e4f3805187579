"""Subscriptions: create (a webhook's secret shown once), list, delete, send a test; the
delivery log. Services flush, the request commits."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from benchdash.audit import service as audit
from benchdash.config import get_settings
from benchdash.db import utcnow
from benchdash.kit.errors import InvalidInput, NotFound
from benchdash.notify import messages, outbox, targets
from benchdash.notify import secrets as secret_box
from benchdash.notify.models import Delivery, Subscription
from benchdash.notify.schemas import (
    DeliveryRead,
    MySubscriptionCreate,
    SubscriptionCreate,
    SubscriptionCreated,
    SubscriptionRead,
)
from benchdash.notify.states import Channel, DeliveryStatus, Event
from benchdash.systems import service as system_service
from benchdash.systems.models import System


def read(*, session: Session, subscription_id: int) -> SubscriptionRead:
    """One subscription as listed."""
    return _read(
        session.get_one(Subscription, subscription_id),
        system_of(session=session, subscription_id=subscription_id),
    )


def _read(sub: Subscription, system: str) -> SubscriptionRead:
    return SubscriptionRead(
        id=sub.id,
        system=system,
        branch=sub.branch,
        channel=Channel(sub.channel),
        name=sub.name,
        target=sub.target,
        events=[Event(e) for e in sub.events],
        owner=sub.owner,
        created_by=sub.created_by,
        created_at=sub.created_at,
        consecutive_failures=sub.consecutive_failures or 0,
        paused_at=sub.paused_at,
        paused_reason=sub.paused_reason,
    )


def _public_target(url: str) -> None:
    """422 unless the URL's host resolves to public addresses only (`notify.targets`)."""
    try:
        targets.check(url, allow_private=get_settings().notify_allow_private)
    except targets.TargetRefused as e:
        raise InvalidInput(
            f"target: {e}", errors=[{"loc": ["body", "target"], "msg": str(e)}]
        ) from None


def _mail_configured(field: str) -> None:
    """422 for an e-mail subscription while this server has no SMTP server to send it by."""
    if not get_settings().smtp_host:
        msg = "e-mail is not configured on this server (BENCHDASH_SMTP_HOST): ask its operator"
        raise InvalidInput(msg, errors=[{"loc": ["body", field], "msg": msg}])


def create(*, session: Session, body: SubscriptionCreate, by: str) -> SubscriptionCreated:
    """Store a subscription; a webhook gets a fresh signing secret, returned this once."""
    system = system_service.get_by_slug(session=session, slug=body.system)
    if body.channel == Channel.EMAIL:
        _mail_configured("channel")
    if body.channel in (Channel.WEBHOOK, Channel.SLACK):
        _public_target(body.target)
    shown_secret: str | None = None
    target, stored = body.target, None
    if body.channel == Channel.WEBHOOK:
        shown_secret = secret_box.new_signing_secret()
        stored = secret_box.encrypt(shown_secret)
    elif body.channel == Channel.SLACK:  # the URL's path is the credential
        target, stored = secret_box.mask_url(body.target), secret_box.encrypt(body.target)
    sub = Subscription(
        system_id=system.id,
        branch=body.branch,
        channel=body.channel,
        name=body.name,
        target=target,
        secret=stored,
        events=[str(e) for e in body.events],
        created_by=by,
        created_at=utcnow(),
    )
    session.add(sub)
    session.flush()
    audit.record(
        session=session,
        actor=by,
        action="notify.subscribe",
        target=f"{system.slug}:{sub.id}",
        detail={"channel": sub.channel, "name": sub.name, "events": sub.events},
    )
    return SubscriptionCreated(**_read(sub, system.slug).model_dump(), secret=shown_secret)


def create_mine(*, session: Session, body: MySubscriptionCreate, owner: str) -> SubscriptionRead:
    """A signed-in user's own subscription: e-mail to the address they give, owned by them."""
    system = system_service.get_by_slug(session=session, slug=body.system)
    _mail_configured("address")
    sub = Subscription(
        system_id=system.id,
        branch=body.branch,
        channel=Channel.EMAIL,
        name=f"{owner.removeprefix('user:')} (e-mail)",
        target=body.address,
        secret=None,
        events=[str(e) for e in body.events],
        owner=owner,
        created_by=owner,
        created_at=utcnow(),
    )
    session.add(sub)
    session.flush()
    audit.record(
        session=session,
        actor=owner,
        action="notify.subscribe",
        target=f"{system.slug}:{sub.id}",
        detail={"channel": sub.channel, "name": sub.name, "events": sub.events, "own": True},
    )
    return _read(sub, system.slug)


def owner_of(*, session: Session, subscription_id: int) -> tuple[str, str | None]:
    """The subscription's system slug and owner, or NotFound (checked before authorising)."""
    row = session.execute(
        select(System.slug, Subscription.owner)
        .join(Subscription, Subscription.system_id == System.id)
        .where(Subscription.id == subscription_id)
    ).first()
    if row is None:
        raise NotFound(f"no subscription {subscription_id}")
    return row[0], row[1]


def list_for(*, session: Session, system: str | None) -> list[SubscriptionRead]:
    """Subscriptions, of one system or all, oldest first."""
    query = select(Subscription, System.slug).join(System, System.id == Subscription.system_id)
    if system is not None:
        query = query.where(System.slug == system)
    rows = session.execute(query.order_by(Subscription.id)).all()
    return [_read(sub, slug) for sub, slug in rows]


def system_of(*, session: Session, subscription_id: int) -> str:
    """The slug of the subscription's system, or NotFound (checked before authorising)."""
    slug = session.scalar(
        select(System.slug)
        .join(Subscription, Subscription.system_id == System.id)
        .where(Subscription.id == subscription_id)
    )
    if slug is None:
        raise NotFound(f"no subscription {subscription_id}")
    return slug


def remove(*, session: Session, subscription_id: int, by: str) -> None:
    """Delete a subscription and its delivery log (a queued delivery then finds it gone)."""
    system = system_of(session=session, subscription_id=subscription_id)
    session.execute(delete(Subscription).where(Subscription.id == subscription_id))
    audit.record(
        session=session,
        actor=by,
        action="notify.unsubscribe",
        target=f"{system}:{subscription_id}",
        detail={},
    )
    session.flush()


def _delivery(d: Delivery) -> DeliveryRead:
    return DeliveryRead(
        id=str(d.id),
        event=Event(d.event),
        status=DeliveryStatus(d.status),
        attempts=d.attempts,
        last_error=d.last_error,
        title=d.payload.get("title"),
        created_at=d.created_at,
        last_attempt_at=d.last_attempt_at,
        delivered_at=d.delivered_at,
    )


def send_test(*, session: Session, subscription_id: int, by: str) -> DeliveryRead:
    """Queue a test notification to this subscription alone."""
    sub = session.get(Subscription, subscription_id)
    if sub is None:
        raise NotFound(f"no subscription {subscription_id}")
    system = system_of(session=session, subscription_id=subscription_id)
    payload = messages.test_payload(system=system, name=sub.name, by=by)
    return _delivery(
        outbox.add(session=session, subscription_id=sub.id, event=Event.TEST, payload=payload)
    )


def log(*, session: Session, subscription_id: int, limit: int) -> Sequence[DeliveryRead]:
    """The subscription's deliveries, newest first."""
    rows = session.scalars(
        select(Delivery)
        .where(Delivery.subscription_id == subscription_id)
        .order_by(Delivery.created_at.desc(), Delivery.id)
        .limit(limit)
    ).all()
    return [_delivery(d) for d in rows]
