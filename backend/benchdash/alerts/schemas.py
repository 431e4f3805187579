"""Wire types of the alerts domain."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from benchdash.alerts.states import AlertStatus
from benchdash.kit.validation import SafeStr
from benchdash.profiles.schemas import RootCause
from benchdash.regression.model import AlertKind


class DriftContributor(BaseModel):
    """A run that worsened a drifting series most: its local change (%)."""

    run_id: int
    commit: str | None
    change_pct: float


class Culprit(BaseModel):
    """The first bad commit a bisection found."""

    sha: str
    subject: str
    author: str


class AlertRead(BaseModel):
    """An alert with the series it is about and the verdict that opened it."""

    id: int
    status: AlertStatus
    summary_id: int | None = Field(
        None, description="The alert summary of its culprit range (null: opened before them)."
    )
    system: str
    benchmark: str
    parameters: dict[str, Any]
    params_key: str = Field(description="Canonical JSON of the parameters.")
    metric: str
    unit: str
    direction: Literal["higher_is_better", "lower_is_better"] = Field(
        description="Which way the metric is better: changes are shown in its own direction."
    )
    branch: str
    testbed: str
    run_id: int = Field(description="The step's first bad run.")
    commit: str | None = Field(description="The first bad run's commit.")
    last_good_run_id: int | None = Field(None, description="The last run before the step.")
    last_good_commit: str | None = Field(
        None, description="Its commit: the regression lies in last_good_commit..commit."
    )
    level: Literal["warn", "fail"] = "fail"
    kind: AlertKind = Field(
        AlertKind.STEP,
        description="step: run_id is the step's first bad run; drift: the level moved past the "
        "thresholds over a long window without a step, run_id is the window's first run.",
    )
    window_runs: int | None = Field(None, description="A drift's window, in runs.")
    contributors: list[DriftContributor] = Field(
        default_factory=list, description="A drift's runs that worsened it most."
    )
    confirmed_by: str | None = Field(
        None,
        description=(
            "change-point, persistence, window, re-runs or drift (null: opened before 0004)."
        ),
    )
    change_pct: float | None = Field(description="The step's size, positive = worse (%).")
    graded_runs: int | None = Field(
        None,
        description="Runs after the step its level and size were last graded on (they are "
        "graded again as runs arrive; null: as opened).",
    )
    regraded_at: datetime | None = Field(
        None, description="When later runs last moved its level or size (null: never)."
    )
    p_value: float | None
    baseline: float | None = Field(None, description="The level before the step.")
    warn_floor: float | None = Field(None, description="The effective warn floor it crossed (%).")
    explanation: str
    series_url: str
    commits_url: str | None = Field(
        None,
        description="The commit range last_good_commit...commit in the system's repository "
        "(null when the system names no repository or a commit is unknown).",
    )
    opened_at: datetime
    acknowledged_at: datetime | None
    acknowledged_by: str | None
    resolved_at: datetime | None
    first_bad_commit: Culprit | None = Field(
        None, description="The exact commit a bisection of the range found (subject, author)."
    )
    root_cause: RootCause | None = Field(
        None,
        description="A step's differential profile (last good run → first bad run): the "
        "functions whose cost grew most, when both runs have a profile of the benchmark.",
    )


class AlertAck(BaseModel):
    """An alert's state after an acknowledgement."""

    id: int
    status: AlertStatus
    acknowledged_at: datetime | None
    acknowledged_by: str | None


class ChangeCreate(BaseModel):
    """A step a maintainer accepts as expected: the series' baseline restarts at `run_id`."""

    system: str = Field(pattern=r"^[a-z0-9][a-z0-9_.-]{0,63}$")
    benchmark: SafeStr = Field(min_length=1, max_length=300)
    params: SafeStr | None = Field(
        None, max_length=4000, description="Canonical JSON of the parameters (params_key)."
    )
    metric: str = Field(min_length=1, max_length=120, pattern=r"^[A-Za-z0-9_.%/\-]+$")
    run_id: int = Field(ge=1, le=2**31 - 1, description="The first run at the new level.")
    note: SafeStr = Field(min_length=1, max_length=500, description='e.g. "new allocator"')


class ChangeRead(BaseModel):
    """An accepted distribution change of a series."""

    id: int
    run_id: int
    note: str
    created_by: str
    created_at: datetime
