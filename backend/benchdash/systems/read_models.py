"""Wire types of the system pages: cards (the overview) and a system's detail."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from benchdash.alerts.schemas import AlertRead
from benchdash.regression.engine import Level
from benchdash.runs.schemas import RunSummary
from benchdash.systems.schemas import BenchmarkRead, BranchRead, Direction, MetricRead


class Sparkline(BaseModel):
    """The headline metric's recent values on main."""

    benchmark: str
    metric: str
    unit: str
    direction: Direction
    values: list[float]
    latest_change_pct: float | None
    latest_level: Level | None


class SystemRead(BaseModel):
    """A system card: what it is, its last run, its open regressions, its headline trend."""

    slug: str
    name: str
    language: str | None
    description: str | None
    latest_run: RunSummary | None
    open_alerts: int
    latest_counts: dict[str, int]
    headline: Sparkline | None


class SystemDetail(SystemRead):
    """A system with its benchmarks, metrics, branches, testbeds and open alerts."""

    profiles: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="Profiles of the registered manifest (empty: no agent)."
    )
    next_scheduled_at: datetime | None = None
    next_scheduled_profile: str | None = None
    benchmarks: list[BenchmarkRead]
    metrics: list[MetricRead]
    branches: list[BranchRead]
    testbeds: list[str]
    alerts: list[AlertRead]
