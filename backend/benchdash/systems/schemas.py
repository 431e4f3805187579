"""Wire types of the systems domain."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from benchdash.alerts.schemas import AlertRead
from benchdash.results.schemas import RunSummary


class BenchmarkRead(BaseModel):
    """A benchmark variant."""

    id: int
    name: str
    parameters: dict[str, Any]
    metrics: list[str] = Field(default_factory=list, description="Metrics measured for it.")


class MetricRead(BaseModel):
    """A metric with its unit, direction and thresholds (percent)."""

    name: str
    unit: str
    direction: str
    warn_threshold: float
    fail_threshold: float


class MetricUpdate(BaseModel):
    """New thresholds for a metric."""

    warn_threshold: float = Field(gt=0, le=1000)
    fail_threshold: float = Field(gt=0, le=1000)


class Sparkline(BaseModel):
    """The headline metric's recent values on main."""

    benchmark: str
    metric: str
    unit: str
    direction: str
    values: list[float]
    latest_change_pct: float | None
    latest_level: str | None


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


class BranchRead(BaseModel):
    """A branch and its pinned baseline run."""

    name: str
    base_branch: str | None
    pinned_run_id: int | None


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


class BaselinePin(BaseModel):
    """Which run to pin as a branch's baseline (null unpins)."""

    run_id: int | None
