"""Alert states: open → acknowledged → resolved."""

from __future__ import annotations

from enum import StrEnum


class AlertStatus(StrEnum):
    """Where an alert is: needs a person, seen by one, or over (the series recovered)."""

    OPEN = "open"
    ACKNOWLEDGED = "acknowledged"
    RESOLVED = "resolved"


ACTIVE_ALERTS = (AlertStatus.OPEN, AlertStatus.ACKNOWLEDGED)
