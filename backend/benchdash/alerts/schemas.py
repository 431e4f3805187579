"""Wire types of the alerts domain."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from benchdash.alerts.states import AlertStatus


class AlertRead(BaseModel):
    """An alert with the series it is about and the verdict that opened it."""

    id: int
    status: AlertStatus
    system: str
    benchmark: str
    parameters: dict[str, Any]
    params_key: str = Field(description="Canonical JSON of the parameters.")
    metric: str
    unit: str
    branch: str
    testbed: str
    run_id: int = Field(description="The run whose verdict opened the alert.")
    commit: str | None
    change_pct: float | None
    p_value: float | None
    explanation: str
    series_url: str
    opened_at: datetime
    acknowledged_at: datetime | None
    acknowledged_by: str | None
    resolved_at: datetime | None


class AlertAck(BaseModel):
    """An alert's state after an acknowledgement."""

    id: int
    status: AlertStatus
    acknowledged_at: datetime | None
    acknowledged_by: str | None
