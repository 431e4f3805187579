"""The states of a bisection and the verdicts of its steps, shared by the table and the wire."""

from __future__ import annotations

from enum import StrEnum

from benchdash.bisect.decide import Verdict

__all__ = ["BisectState", "Verdict"]


class BisectState(StrEnum):
    """running → found | cannot_bisect | failed | cancelled."""

    RUNNING = "running"
    FOUND = "found"
    CANNOT = "cannot_bisect"
    FAILED = "failed"
    CANCELLED = "cancelled"


ENDED = (BisectState.FOUND, BisectState.CANNOT, BisectState.FAILED, BisectState.CANCELLED)
