"""Wire types of the run pages: a run with its verdicts, and two runs compared."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from benchdash.alerts.schemas import AlertRead
from benchdash.regression.engine import Level
from benchdash.results.schemas import PrVerdictRead, VerdictRead
from benchdash.runs.environment import EnvironmentChange
from benchdash.runs.schemas import RunSummary
from benchdash.systems.schemas import Direction


class RunDetail(RunSummary):
    """A run with its environment, configuration and every measurement with its verdict."""

    environment: dict[str, Any] | None
    configuration: dict[str, Any] | None
    measurements: list[VerdictRead]
    reruns: list[RunSummary] = Field(
        default_factory=list,
        description="Re-runs of this run's ref queued to confirm its suspected changes.",
    )
    alerts: list[AlertRead] = Field(
        default_factory=list,
        description="Alerts whose step starts at this run (it is their first bad run), any state.",
    )
    environment_change: EnvironmentChange | None = Field(
        None,
        description="How this run's environment differs from the previous run's on its testbed "
        "and branch (compiler, kernel, CPU …), or null when it does not.",
    )
    pr: PrVerdictRead | None = Field(
        None,
        description="The run against its base branch's recent runs when its branch has a base "
        "(a pull request): the decision its upload answered with.",
    )


class CompareRow(BaseModel):
    """One series present in either run of a comparison."""

    benchmark: str
    parameters: dict[str, Any]
    params_key: str
    metric: str
    unit: str
    direction: Direction
    base: float | None
    head: float | None
    change_pct: float | None
    p_value: float | None
    level: Level | None


class Comparison(BaseModel):
    """Two runs side by side."""

    base: RunSummary
    head: RunSummary
    rows: list[CompareRow]
