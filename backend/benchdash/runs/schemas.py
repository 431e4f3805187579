"""Wire types of the runs domain."""

from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, Field

from benchdash.results.schemas import RunSummary, VerdictRead


class RunDetail(RunSummary):
    """A run with its environment, configuration and every measurement with its verdict."""

    environment: dict[str, Any] | None
    configuration: dict[str, Any] | None
    measurements: list[VerdictRead]


T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    """One page of a list."""

    items: list[T]
    total: int
    limit: int
    offset: int


class CompareRow(BaseModel):
    """One series present in either run of a comparison."""

    benchmark: str
    parameters: dict[str, Any]
    metric: str
    unit: str
    direction: str
    base: float | None
    head: float | None
    change_pct: float | None
    p_value: float | None
    level: str | None


class Comparison(BaseModel):
    """Two runs side by side."""

    base: RunSummary
    head: RunSummary
    rows: list[CompareRow]


class RunCreate(BaseModel):
    """What to run: a system at a ref of this repository, with a profile."""

    system: str = Field(pattern=r"^[a-z0-9][a-z0-9_.-]{0,63}$")
    ref: str = Field("main", min_length=1, max_length=200, pattern=r"^[A-Za-z0-9._/@^~-]+$")
    profile: Literal["quick", "standard", "full"] = "quick"
    benchmarks: list[str] | None = Field(None, max_length=200)
    branch: str | None = Field(None, min_length=1, max_length=200)
    trigger: Literal["web", "schedule"] = Field("web", description="schedule: agents' cron")


class Progress(BaseModel):
    """Where a run is: scenario i of n, percent, estimated seconds left."""

    done: int = Field(ge=0)
    total: int = Field(ge=1)
    scenario: str | None = Field(None, max_length=300)
    percent: float = Field(ge=0, le=100)
    eta_s: float | None = Field(None, ge=0)


class RunReport(BaseModel):
    """An agent's heartbeat, optionally with a state change, progress and log lines."""

    status: (
        Literal["building", "running", "uploading", "failed", "cancelled", "timed_out"] | None
    ) = None
    message: str | None = Field(None, max_length=20_000)
    progress: Progress | None = None
    lines: list[str] = Field(default_factory=list, max_length=5_000)
    agent: str | None = Field(None, max_length=200)


class ReportAck(BaseModel):
    """What the agent must do next."""

    status: str
    cancel_requested: bool
