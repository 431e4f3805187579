"""The `benchdash/v1` result document (ingest model) and the ingest response."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from benchdash.kit.validation import SafeJson, SafeStr, check_text
from benchdash.profiles.schemas import ProfileIn
from benchdash.regression.engine import Level
from benchdash.regression.model import Stage
from benchdash.runs.schemas import RunSummary
from benchdash.runs.states import RunTrigger

SLUG = r"^[a-z0-9][a-z0-9_.-]{0,63}$"
COUNT_UNITS = {"count", "requests", "errors", "queries", "ops", "allocs", "allocs/op", "B", "bytes"}
Scalar = SafeStr | int | float | bool | None

Direction = Literal["higher_is_better", "lower_is_better"]


class Strict(BaseModel):
    """Base of wire models: unknown fields and non-finite numbers are errors."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class MetricIn(Strict):
    """One metric of one benchmark: a value, repeated samples, or both."""

    name: str = Field(min_length=1, max_length=120, pattern=r"^[A-Za-z0-9_.%/\-]+$")
    unit: SafeStr = Field(
        min_length=1, max_length=40, description="Unit, e.g. ns, req/s, MiB/s, %."
    )
    direction: Direction = Field(description="Whether a larger value is better or worse.")
    value: float | None = Field(None, description="The value; defaults to the samples' median.")
    samples: list[float] = Field(
        default_factory=list, max_length=100_000, description="Repeated measurements."
    )

    @model_validator(mode="after")
    def _value_or_samples(self) -> MetricIn:
        if self.value is None and not self.samples:
            raise ValueError("a metric needs a value or samples")
        if self.unit in COUNT_UNITS and (
            (self.value is not None and self.value < 0) or any(s < 0 for s in self.samples)
        ):
            raise ValueError(f"a count in {self.unit!r} cannot be negative")
        return self


class ResultIn(Strict):
    """One benchmark (name + parameters) and its metrics."""

    benchmark: SafeStr = Field(min_length=1, max_length=300, description="Benchmark name.")
    parameters: dict[Annotated[str, Field(max_length=200)], Scalar] = Field(
        default_factory=dict, description="Parameters that make this variant distinct."
    )
    metrics: list[MetricIn] = Field(min_length=1, max_length=200)
    profile: ProfileIn | None = Field(
        None, description="A profile of this benchmark (runners/CONTRACT.md, Profiles)."
    )

    @field_validator("parameters")
    @classmethod
    def _safe_keys(cls, parameters: dict[str, Scalar]) -> dict[str, Scalar]:
        for key in parameters:
            check_text(key)
        return parameters

    @field_validator("metrics")
    @classmethod
    def _unique_metrics(cls, metrics: list[MetricIn]) -> list[MetricIn]:
        names = [m.name for m in metrics]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise ValueError(f"metric named twice: {', '.join(sorted(dup))}")
        return metrics

    @model_validator(mode="after")
    def _profile_explains_a_metric(self) -> ResultIn:
        names = [m.name for m in self.metrics]
        if self.profile is not None and self.profile.metric not in (None, *names):
            raise ValueError(
                f"profile.metric {self.profile.metric!r} is not a metric of this result "
                f"(its metrics: {', '.join(names)})"
            )
        return self


class RunIn(Strict):
    """Where and when the results were measured."""

    id: int | None = Field(
        None,
        ge=1,
        le=2**31 - 1,
        description="Run created by POST /api/v1/runs that this completes.",
    )
    external_id: SafeStr | None = Field(
        None, min_length=1, max_length=200, description="Idempotency key, unique per system."
    )
    commit: SafeStr | None = Field(None, max_length=64)
    branch: SafeStr = Field("main", min_length=1, max_length=200)
    base_branch: SafeStr | None = Field(
        None,
        min_length=1,
        max_length=200,
        description=(
            "The branch this one is judged against until it has its own history (a pull "
            "request's target). Default: the system's default branch (main, master, develop "
            "or trunk, whichever it has)."
        ),
    )
    version: SafeStr | None = Field(None, max_length=100)
    trigger: RunTrigger = RunTrigger.CI
    profile: SafeStr | None = Field(None, max_length=40)
    started_at: datetime | None = None
    finished_at: datetime | None = None
    testbed: SafeStr | None = Field(None, min_length=1, max_length=200)
    historical: bool | None = Field(
        None,
        description=(
            "Part of a history brought in (`benchdash import --historical`): the alerts it "
            "implies open acknowledged by 'history import' and notify nobody."
        ),
    )


class DocumentIn(Strict):
    """A `benchdash/v1` result document: one run of one system."""

    schema_: Literal["benchdash/v1"] = Field(alias="schema")
    system: str = Field(pattern=SLUG, description="System slug.")
    run: RunIn
    environment: SafeJson = Field(default_factory=dict)
    configuration: SafeJson = Field(default_factory=dict)
    results: list[ResultIn] = Field(min_length=1, max_length=5000)

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, populate_by_name=True)


class VerdictRead(BaseModel):
    """A measurement with its verdict, as returned by ingest and the run endpoint."""

    measurement_id: int
    benchmark: str
    parameters: dict[str, Any]
    params_key: str = Field(description="Canonical JSON of the parameters.")
    metric: str
    unit: str
    direction: Direction
    value: float
    n: int
    mean: float | None
    median: float | None
    stddev: float | None
    min: float | None
    max: float | None
    cv: float | None
    outliers_removed: int
    samples: list[float]
    baseline: float | None
    baseline_run_ids: list[int]
    baseline_source: str | None
    change_pct: float | None
    p_value: float | None
    z_score: float | None
    gate: str | None
    level: Level
    stage: Stage | None = Field(
        None,
        description="suspected: crossed the floors, awaiting confirmation; confirmed: an alert "
        "names it as a step's first bad run; dismissed: its re-runs did not confirm it.",
    )
    warn_threshold: float = Field(description="Configured warn threshold (%).")
    fail_threshold: float = Field(description="Configured fail threshold (%).")
    floor_warn: float | None = Field(
        None, description="Effective warn floor (%): the configured one or the series' noise."
    )
    floor_fail: float | None = Field(None, description="Effective fail floor (%).")
    variation: float | None = Field(
        None, description="The series' typical run-to-run change (%), when measured."
    )
    reason: str | None = Field(None, description="Why nothing was judged (too little history).")
    accepted_change: str | None = Field(
        None, description="The note of a change accepted at this run: the baseline restarts here."
    )
    explanation: str
    series_url: str


class PrSeriesRead(BaseModel):
    """One series of a pull request's run against its base (`regression.pr`)."""

    benchmark: str
    params_key: str
    metric: str
    outcome: Literal["fail", "warn", "uncertain", "ok", "no_base"]
    change_pct: float | None = Field(description="Hodges–Lehmann change (%), positive = worse.")
    low_pct: float | None = Field(description="Its 95 % interval's lower end (%).")
    high_pct: float | None = Field(description="Its 95 % interval's upper end (%).")
    samples: int
    noise_pct: float = Field(description="Relative spread of the samples compared (%).")
    reason: str


class BaseRunRead(BaseModel):
    """A base branch run a pull request's run was compared with."""

    run_id: int
    commit: str | None


class PrVerdictRead(BaseModel):
    """A pull request's run decided on its own samples against its base's recent runs."""

    verdict: Literal["fail", "neutral", "success"] = Field(
        description="fail: a confident regression past the fail threshold; neutral: a warning "
        "or a change its samples cannot tell; success: nothing past the thresholds."
    )
    base_branch: str
    base_runs: list[BaseRunRead] = Field(description="The base runs compared with, oldest first.")
    series: list[PrSeriesRead]


class IngestResponse(BaseModel):
    """What POST /api/v1/results answers."""

    created: bool
    run: RunSummary
    verdicts: list[VerdictRead]
    pr: PrVerdictRead | None = Field(
        None, description="Set when the run's branch has a base branch (a pull request)."
    )
