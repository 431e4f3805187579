"""Wire types of a backtest: which series to replay under which thresholds, and what would
have opened beside what did."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from benchdash.alerts.states import AlertStatus
from benchdash.kit.validation import INT4_MAX, SafeStr
from benchdash.regression.model import AlertKind

# The work one request may do: replayed points summed over its series (series × runs). At
# about 0.3–0.5 ms a point on one core, the largest backtest answers within about 25 s.
MAX_POINTS = 50_000
METRIC_NAME = r"^[A-Za-z0-9_.%/\-]+$"


def _ordered(warn: float, fail: float, where: str) -> None:
    if not warn < fail:
        raise ValueError(
            f"{where}: the warn threshold ({warn:g} %) must be below fail ({fail:g} %)"
        )


class MetricThresholds(BaseModel):
    """Other thresholds for one metric of the system (overrides `warn`/`fail` for it)."""

    model_config = ConfigDict(extra="forbid")

    metric: str = Field(min_length=1, max_length=120, pattern=METRIC_NAME)
    warn: float = Field(gt=0, le=1000, description="Warn threshold, %.")
    fail: float = Field(gt=0, le=1000, description="Fail threshold, %.")

    @model_validator(mode="after")
    def _check(self) -> Self:
        _ordered(self.warn, self.fail, f"override of {self.metric}")
        return self


class BacktestRequest(BaseModel):
    """Replay a system's stored series (all of a branch, one testbed's, or one series) through
    the detector under other thresholds. Nothing is written."""

    model_config = ConfigDict(extra="forbid")

    system: str = Field(pattern=r"^[a-z0-9][a-z0-9_.-]{0,63}$")
    branch: SafeStr = Field("main", min_length=1, max_length=200)
    testbed: SafeStr | None = Field(
        None, min_length=1, max_length=200, description="Only this testbed (null: every one)."
    )
    benchmark_id: int | None = Field(
        None, ge=1, le=INT4_MAX, description="One series: this benchmark variant (with metric)."
    )
    metric: str | None = Field(
        None, min_length=1, max_length=120, pattern=METRIC_NAME, description="With benchmark_id."
    )
    warn: float = Field(gt=0, le=1000, description="Warn threshold, % (0 < warn < fail).")
    fail: float = Field(gt=0, le=1000, description="Fail threshold, % (at most 1000).")
    overrides: list[MetricThresholds] = Field(
        default_factory=list, max_length=200, description="Per-metric thresholds, by name."
    )
    max_runs: int = Field(
        500, ge=20, le=5000, description="Replay each series' newest this many accepted runs."
    )

    @model_validator(mode="after")
    def _check(self) -> Self:
        _ordered(self.warn, self.fail, "thresholds")
        if (self.benchmark_id is None) != (self.metric is None):
            raise ValueError("one series is named by benchmark_id and metric together")
        names = [o.metric for o in self.overrides]
        if len(set(names)) != len(names):
            raise ValueError("overrides name each metric at most once")
        return self


class BacktestAlert(BaseModel):
    """An alert that would have opened (replayed) or did open (stored)."""

    kind: AlertKind
    level: Literal["warn", "fail"]
    run_id: int = Field(description="The step's first bad run (a drift's: its window's first).")
    commit: str | None
    started_at: datetime = Field(description="When that run started.")
    change_pct: float | None = Field(description="The size, positive = worse (%).")
    confirmed_by: str | None = Field(
        description="change-point, persistence, window, re-runs or drift."
    )
    alarm_run_id: int | None = Field(
        None, description="Replayed: the run whose upload would have opened it."
    )
    alert_id: int | None = Field(None, description="Stored: the alert's id.")
    status: AlertStatus | None = Field(None, description="Stored: where the alert is now.")


class Thresholds(BaseModel):
    """Warn and fail thresholds, %."""

    warn: float
    fail: float


class BacktestSeries(BaseModel):
    """One replayed series: the alerts that would have opened beside those that did."""

    benchmark: str
    benchmark_id: int
    parameters: dict[str, Any]
    params_key: str
    metric: str
    unit: str
    direction: Literal["higher_is_better", "lower_is_better"]
    testbed: str
    runs: int = Field(description="Accepted runs replayed (the newest max_runs).")
    first_run_at: datetime = Field(description="The first replayed run's start.")
    thresholds: Thresholds = Field(description="Replayed under these.")
    current: Thresholds = Field(description="The metric's thresholds now.")
    would_open: list[BacktestAlert]
    did_open: list[BacktestAlert] = Field(
        description="Stored alerts whose run is among the replayed ones (any status)."
    )


class Counts(BaseModel):
    """Alert events over the replayed runs."""

    events: int
    per_100_runs: float
    warn: int
    fail: int
    step: int
    drift: int


class Totals(BaseModel):
    """Over every replayed series."""

    series: int
    runs: int
    would_open: Counts
    did_open: Counts


class BacktestRead(BaseModel):
    """What a backtest found (read only: nothing was written)."""

    system: str
    branch: str
    testbed: str | None
    warn: float
    fail: float
    overrides: list[MetricThresholds]
    max_runs: int
    limit: int = Field(description="The most points (series × runs) one backtest replays.")
    series: list[BacktestSeries]
    totals: Totals
