"""Wire types of the series endpoint."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field

from benchdash.alerts.schemas import ChangeRead, Culprit
from benchdash.alerts.states import AlertStatus
from benchdash.regression.engine import Level
from benchdash.regression.model import Stage
from benchdash.runs.environment import EnvironmentChange
from benchdash.systems.schemas import Direction


class SeriesPoint(BaseModel):
    """One run's value of the series, with spread and verdict."""

    run_id: int
    commit: str | None
    t: datetime = Field(description="When the run started.")
    value: float
    min: float | None
    max: float | None
    stddev: float | None
    n: int
    level: Level | None
    stage: Stage | None = Field(None, description="suspected, confirmed or dismissed.")
    baseline: float | None
    change_pct: float | None
    p_value: float | None


class PointColumns(BaseModel):
    """Points as columns, oldest first: one array per field, all of one length (index i is
    point i); the two column forms (`SeriesColumns`, the batch's `BatchPoints`) add how they
    name each point's run."""

    value: list[float]
    min: list[float | None]
    max: list[float | None]
    stddev: list[float | None]
    n: list[int]
    level: list[Level | None]
    stage: list[Stage | None]
    baseline: list[float | None]
    change_pct: list[float | None]
    p_value: list[float | None]


class SeriesColumns(PointColumns):
    """The points of GET /series?form=columns; `t` in milliseconds since the epoch. About half
    the bytes of the points' objects."""

    run_id: list[int]
    commit: list[str | None]
    t: list[float]


class SeriesStep(BaseModel):
    """A confirmed step of the series: the alert that names its first bad run."""

    alert_id: int
    run_id: int = Field(description="The step's first bad run.")
    level: Literal["warn", "fail"]
    status: AlertStatus
    confirmed_by: str | None
    change_pct: float | None
    commit: str | None
    first_bad_commit: Culprit | None = Field(
        None,
        description="The first bad commit a bisection of the alert found (sha, subject, author).",
    )


class SeriesRead(BaseModel):
    """A series and its (possibly downsampled) points, oldest first."""

    system: str
    benchmark: str
    benchmark_id: int
    parameters: dict[str, Any]
    params_key: str = Field(description="Canonical JSON of the parameters.")
    metric: str
    unit: str
    direction: Direction
    warn_threshold: float
    fail_threshold: float
    branch: str
    testbed: str | None
    testbeds: list[str]
    total: int = Field(description="Points in range before downsampling.")
    downsampled: bool
    points: list[SeriesPoint] = Field(description="Empty with form=columns.")
    columns: SeriesColumns | None = Field(
        None, description="The points as columns, with form=columns (else null)."
    )
    steps: list[SeriesStep] = Field(
        default_factory=list, description="Confirmed steps (alerts), oldest first."
    )
    changes: list[ChangeRead] = Field(
        default_factory=list, description="Accepted distribution changes: baseline restarts."
    )
    environment_changes: list[EnvironmentChange] = Field(
        default_factory=list,
        description="Runs whose environment (compiler, kernel, CPU …) differs from the previous "
        "run's on this testbed and branch, oldest first: marks on the chart.",
    )


class SeriesState(StrEnum):
    """Where a series stands now, worst first: the page's order and its "only changed" toggle."""

    REGRESSED = "regressed"  # an alert of the series is open or acknowledged
    SUSPECTED = "suspected"  # its newest point crossed the floor, not yet confirmed
    CHANGED = "changed"  # its newest point is warn, fail or improved (no open alert)
    STEADY = "steady"
