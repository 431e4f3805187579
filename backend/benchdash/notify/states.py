"""The words of notifications: channels, events and a delivery's states."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal


class Channel(StrEnum):
    """Where a subscription sends."""

    WEBHOOK = "webhook"  # JSON, signed with HMAC-SHA256 (Benchdash-Signature)
    SLACK = "slack"  # a Slack-compatible incoming webhook: text + blocks
    EMAIL = "email"  # SMTP, configured by the server's settings


class Event(StrEnum):
    """What happened."""

    ALERT_OPENED = "alert.opened"  # a confirmed regression
    ALERT_UPDATED = "alert.updated"  # more series joined its summary
    ALERT_RESOLVED = "alert.resolved"  # its recovery
    ALERT_BISECTED = "alert.bisected"  # a bisection named its first bad commit
    ALERT_REGRADED = "alert.regraded"  # later runs moved its level (warn to fail, or back)
    RUN_FAILED = "run.failed"
    TEST = "test"  # "send a test"


SUBSCRIBABLE = (
    Event.ALERT_OPENED,
    Event.ALERT_UPDATED,
    Event.ALERT_RESOLVED,
    Event.ALERT_BISECTED,
    Event.ALERT_REGRADED,
    Event.RUN_FAILED,
)
# What a subscription may name (the wire type: "test" is the send-a-test button's alone).
SubscribableEvent = Literal[
    Event.ALERT_OPENED,
    Event.ALERT_UPDATED,
    Event.ALERT_RESOLVED,
    Event.ALERT_BISECTED,
    Event.ALERT_REGRADED,
    Event.RUN_FAILED,
]


class DeliveryStatus(StrEnum):
    """pending → sending → delivered, or → retrying → sending … → failed after the last try."""

    PENDING = "pending"
    SENDING = "sending"
    RETRYING = "retrying"
    DELIVERED = "delivered"
    FAILED = "failed"
