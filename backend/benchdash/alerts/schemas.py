"""Wire types of the alerts domain."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel


class AlertRead(BaseModel):
    """An alert with the series it is about and the verdict that opened it."""

    id: int
    status: str
    system: str
    benchmark: str
    parameters: dict[str, Any]
    metric: str
    unit: str
    branch: str
    testbed: str
    run_id: int
    commit: str | None
    change_pct: float | None
    p_value: float | None
    explanation: str
    series_url: str
    opened_at: datetime
    acknowledged_at: datetime | None
    acknowledged_by: str | None
    resolved_at: datetime | None
