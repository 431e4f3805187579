"""One try of one delivery, in three steps: mark it sending (committed), send, record the
outcome (committed). A process that dies while sending leaves it `sending`; the job queue runs
it again (`notify.worker`) with the same delivery id, which receivers use to drop the copy."""

from __future__ import annotations

import uuid

from sqlalchemy import select

from benchdash.config import Settings
from benchdash.db import SessionMaker, utcnow
from benchdash.notify import channels, pause, targets
from benchdash.notify import secrets as secret_box
from benchdash.notify.models import Delivery, Subscription
from benchdash.notify.states import Channel, DeliveryStatus, Event

DONE = (DeliveryStatus.DELIVERED, DeliveryStatus.FAILED)


def _prepare(sessions: SessionMaker, delivery_id: uuid.UUID) -> tuple[channels.Outgoing | str, int]:
    """Mark the delivery sending and build what to send, or say why there is nothing to do."""
    with sessions() as session:
        row = session.execute(
            select(Delivery, Subscription)
            .join(Subscription, Subscription.id == Delivery.subscription_id)
            .where(Delivery.id == delivery_id)
            .with_for_update(of=Delivery)
        ).first()
        if row is None:
            return "gone", 0  # its subscription was deleted
        delivery, sub = row
        if delivery.status in DONE:
            return delivery.status, delivery.attempts
        if sub.paused_reason is not None and delivery.event != Event.TEST:
            delivery.status = DeliveryStatus.FAILED
            delivery.last_error = pause.NOT_SENT.format(reason=sub.paused_reason)
            return DeliveryStatus.FAILED, delivery.attempts
        delivery.attempts += 1
        delivery.status = DeliveryStatus.SENDING
        delivery.last_attempt_at = utcnow()
        try:
            stored = sub.secret
            plain = secret_box.decrypt(stored) if stored else None
        except secret_box.SecretUnreadable as e:
            delivery.status, delivery.last_error = DeliveryStatus.FAILED, str(e)
            return DeliveryStatus.FAILED, delivery.attempts
        target = plain if sub.channel == Channel.SLACK and plain else sub.target
        body = {
            "id": str(delivery.id),
            "created_at": delivery.created_at.isoformat(),
            **delivery.payload,
        }
        out = channels.Outgoing(
            channel=sub.channel,
            target=target,
            secret=plain if sub.channel == Channel.WEBHOOK else None,
            delivery_id=str(delivery.id),
            body=body,
        )
        return out, delivery.attempts


def attempt(*, sessions: SessionMaker, delivery_id: uuid.UUID, settings: Settings) -> str:
    """Try the delivery once; its status after. Raises DeliveryError when it should be tried
    again (the job queue waits, doubling each time); after the last try it is `failed`."""
    prepared, attempts = _prepare(sessions, delivery_id)
    if isinstance(prepared, str):
        return prepared
    error: str | None = None
    refused = False
    try:
        channels.send(prepared, settings)
    except channels.PermanentFailure as e:  # 4xx but 408/429: the receiver said no for good
        error, refused = str(e), True
    except channels.DeliveryError as e:
        error = str(e)
    except targets.TargetRefused as e:  # not tried again: the address will not become public
        error, refused = f"refused: {e}", True
    with sessions() as session:
        # The subscription's row first, then the delivery's: the order a delete cascades in.
        sub_id = session.scalar(select(Delivery.subscription_id).where(Delivery.id == delivery_id))
        sub = None if sub_id is None else pause.lock(session, sub_id)
        delivery = session.get(Delivery, delivery_id, with_for_update=True)
        if delivery is None or sub is None:
            return "gone"
        if error is None:
            delivery.status, delivery.delivered_at = DeliveryStatus.DELIVERED, utcnow()
            delivery.last_error = None
        else:
            delivery.last_error = error
            last = refused or attempts >= settings.notify_max_attempts
            delivery.status = DeliveryStatus.FAILED if last else DeliveryStatus.RETRYING
        status = delivery.status
        if status in DONE:  # the subscription's run of failures grows or ends
            pause.record(session=session, sub=sub, error=error, settings=settings)
    if status == DeliveryStatus.RETRYING:
        raise channels.DeliveryError(f"attempt {attempts}: {error}")
    return status
