"""Alert states: open → acknowledged → resolved."""

from __future__ import annotations

from enum import StrEnum

from benchdash.regression.engine import Level


class AlertStatus(StrEnum):
    """Where an alert is: needs a person, seen by one, or over (the series recovered)."""

    OPEN = "open"
    ACKNOWLEDGED = "acknowledged"
    RESOLVED = "resolved"


class Resolution(StrEnum):
    """How a person closed a summary's question (null: not said, or the series recovered)."""

    ACCEPTED = "accepted"  # expected: each series' baseline restarts at its step
    INVALID = "invalid"  # not a regression (noise, a broken run): its alerts are acknowledged


ACTIVE_ALERTS = (AlertStatus.OPEN, AlertStatus.ACKNOWLEDGED)

# The levels an alert opens at (a verdict may also pass, improve, be noisy or learning).
ALERT_LEVELS = (Level.WARN, Level.FAIL)
