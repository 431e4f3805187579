"""Record audit events in the caller's transaction (a rolled-back change leaves no trace)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from benchdash.audit.models import AuditEvent
from benchdash.db import utcnow


def record(
    *, session: Session, actor: str, action: str, target: str, detail: dict[str, Any]
) -> None:
    """Append one event, e.g. `record(actor="user:ann", action="thresholds.set", ...)`."""
    session.add(AuditEvent(at=utcnow(), actor=actor, action=action, target=target, detail=detail))
