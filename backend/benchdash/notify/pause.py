"""A subscription that keeps failing is paused, with the reason in words, until resumed.

Each delivery that ends (`notify.delivery`) moves its subscription's count: delivered resets
it, failed (the last retry spent, or a permanent refusal after its one try) adds one. At
BENCHDASH_NOTIFY_PAUSE_AFTER failures in a row the subscription is paused: the outbox queues
nothing more for it and deliveries still waiting are not sent. "Send a test" still sends (to
see whether the receiver is back); only resuming, by its owner or an admin, unpauses it.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from sqlalchemy import select
from sqlalchemy.orm import Session

from benchdash.audit import service as audit
from benchdash.config import Settings
from benchdash.db import utcnow
from benchdash.kit.errors import Conflict, NotFound
from benchdash.notify.models import Subscription
from benchdash.notify.states import Channel
from benchdash.systems.models import System

NOT_SENT = "not sent: the subscription is paused ({reason})"


def _where(sub: Subscription) -> str:
    """Who refused: a webhook's or Slack URL's host, an e-mail's address."""
    if sub.channel == Channel.EMAIL:
        return f"sending to {sub.target}"
    return f"from {urlsplit(sub.target).hostname or sub.target}"


def _short(error: str) -> str:
    """The part of a delivery error a person reads first: `HTTP 410`, `ConnectError: …`."""
    if error.startswith("HTTP "):
        return error.split(":", 1)[0].split(" (", 1)[0]
    if error.startswith("refused: "):
        return error
    return error if len(error) <= 160 else error[:159] + "…"


def reason(sub: Subscription, failures: int, error: str) -> str:
    """E.g. `paused after 5 failed deliveries; last: HTTP 410 from hooks.example.com`."""
    noun = "delivery" if failures == 1 else "deliveries"
    return f"paused after {failures} failed {noun}; last: {_short(error)} {_where(sub)}"


def lock(session: Session, subscription_id: int) -> Subscription | None:
    """The subscription, its row locked until the transaction ends (None: deleted)."""
    return session.get(Subscription, subscription_id, with_for_update=True)


def record(*, session: Session, sub: Subscription, error: str | None, settings: Settings) -> None:
    """Count one ended delivery of `sub` (locked; `error` None: delivered); pause at the limit."""
    if error is None:
        sub.consecutive_failures = 0
        return
    sub.consecutive_failures += 1
    limit = settings.notify_pause_after
    if sub.paused_at is None and limit and sub.consecutive_failures >= limit:
        sub.paused_at, sub.paused_reason = utcnow(), reason(sub, sub.consecutive_failures, error)
        slug = session.scalar(select(System.slug).where(System.id == sub.system_id))
        audit.record(
            session=session,
            actor="benchdash",
            action="notify.pause",
            target=f"{slug}:{sub.id}",
            detail={"reason": sub.paused_reason},
        )


def resume(*, session: Session, subscription_id: int, by: str) -> Subscription:
    """Unpause: deliveries are queued again and the count starts from zero (409 if running)."""
    sub = lock(session, subscription_id)
    if sub is None:
        raise NotFound(f"no subscription {subscription_id}")
    if sub.paused_at is None:
        raise Conflict(f"subscription {subscription_id} is not paused: nothing to resume")
    was = sub.paused_reason
    sub.paused_at, sub.paused_reason, sub.consecutive_failures = None, None, 0
    slug = session.scalar(select(System.slug).where(System.id == sub.system_id))
    audit.record(
        session=session,
        actor=by,
        action="notify.resume",
        target=f"{slug}:{sub.id}",
        detail={"was": was},
    )
    session.flush()
    return sub
