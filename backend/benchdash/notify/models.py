"""The subscription and delivery (outbox) tables."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import (
    ARRAY,
    BigInteger,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    Uuid,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from benchdash.db import Base, utcnow
from benchdash.kit.sql import sql_in
from benchdash.notify.states import Channel, DeliveryStatus, Event


class Subscription(Base):
    """Who hears about a system (optionally one branch): a channel, its target, its events.

    `secret` holds what must be usable but never shown again, encrypted with the server's
    key (`notify.secrets`): a webhook's signing secret, a Slack URL (its path is a credential).
    """

    __tablename__ = "notify_subscription"
    __table_args__ = (
        CheckConstraint(f"channel IN ({sql_in(Channel)})", name="channel_known"),
        CheckConstraint("(paused_at IS NULL) = (paused_reason IS NULL)", name="paused_has_reason"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    system_id: Mapped[int] = mapped_column(ForeignKey("system.id", ondelete="CASCADE"))
    branch: Mapped[str | None] = mapped_column(String(200))  # None: every branch
    channel: Mapped[str] = mapped_column(String(10))
    name: Mapped[str] = mapped_column(String(120))
    target: Mapped[str] = mapped_column(Text)  # shown: a webhook URL, an e-mail address, a mask
    secret: Mapped[str | None] = mapped_column(Text)  # encrypted, never returned
    events: Mapped[list[str]] = mapped_column(ARRAY(String(20)))
    # A personal subscription's owner (a signed-in user's principal, "user:ann"); None: a team's.
    owner: Mapped[str | None] = mapped_column(String(120), index=True)
    created_by: Mapped[str] = mapped_column(String(120))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Deliveries that ended `failed` since the last one delivered (`notify.pause`); at
    # BENCHDASH_NOTIFY_PAUSE_AFTER the subscription is paused: nothing is queued for it (but
    # "send a test") until it is resumed.
    consecutive_failures: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    paused_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    paused_reason: Mapped[str | None] = mapped_column(Text)


class Delivery(Base):
    """The outbox: one row per event and subscription, written in the event's transaction.

    Its id is the delivery id receivers see (`Benchdash-Delivery`, the e-mail's Message-ID):
    a delivery tried again after a crash carries the same id, so receivers drop the copy.
    """

    __tablename__ = "notify_delivery"
    __table_args__ = (
        CheckConstraint(f"status IN ({sql_in(DeliveryStatus)})", name="status_known"),
        CheckConstraint(f"event IN ({sql_in(Event)})", name="event_known"),
        Index("ix_notify_delivery_subscription_created", "subscription_id", "created_at"),
    )

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True, default=uuid.uuid4)
    subscription_id: Mapped[int] = mapped_column(
        ForeignKey("notify_subscription.id", ondelete="CASCADE")
    )
    event: Mapped[str] = mapped_column(String(20))
    payload: Mapped[dict[str, Any]] = mapped_column(JSONB)
    status: Mapped[str] = mapped_column(String(10), default=DeliveryStatus.PENDING)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str | None] = mapped_column(Text)
    job_id: Mapped[int | None] = mapped_column(BigInteger)  # procrastinate_jobs.id
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_attempt_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    delivered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The alert summary it tells of (migration 0024): a pending one takes later news of it.
    summary_id: Mapped[int | None] = mapped_column(Integer, index=True)
