"""Wire types of the systems domain."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from benchdash.kit.validation import HTTP_URL

Direction = Literal["higher_is_better", "lower_is_better"]


class BenchmarkRead(BaseModel):
    """A benchmark variant."""

    id: int
    name: str
    parameters: dict[str, Any]
    params_key: str = Field(description="Canonical JSON of the parameters: the variant's identity.")
    metrics: list[str] = Field(default_factory=list, description="Metrics measured for it.")


class MetricRead(BaseModel):
    """A metric with its unit, direction and thresholds (percent)."""

    name: str
    unit: str
    direction: Direction
    warn_threshold: float
    fail_threshold: float


class MetricUpdate(BaseModel):
    """New thresholds for a metric."""

    warn_threshold: float = Field(gt=0, le=1000)
    fail_threshold: float = Field(gt=0, le=1000)


class MetricBounds(BaseModel):
    """A metric's declared value range; null is unbounded on that side (a `%` unit: 0 or 100)."""

    min_value: float | None = Field(allow_inf_nan=False, ge=-1e300, le=1e300)
    max_value: float | None = Field(allow_inf_nan=False, ge=-1e300, le=1e300)

    @model_validator(mode="after")
    def _ordered(self) -> MetricBounds:
        low, high = self.min_value, self.max_value
        if low is not None and high is not None and low > high:
            raise ValueError("min_value must not exceed max_value")
        return self


class BranchRead(BaseModel):
    """A branch and its pinned baseline run."""

    name: str
    base_branch: str | None
    pinned_run_id: int | None


def _json_integer(value: object) -> object:
    """A JSON integer (5240.0 counts, as JSON Schema says); true or "3" is not a run id."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
        raise ValueError("must be an integer run id")
    return value


class BaselinePin(BaseModel):
    """Which run to pin as a branch's baseline (null unpins)."""

    run_id: Annotated[int, Field(ge=1, le=2**31 - 1)] | None

    @field_validator("run_id", mode="before")
    @classmethod
    def _an_integer(cls, value: object) -> object:
        return _json_integer(value)


class SystemRegistration(BaseModel):
    """What the API stored of a registered manifest."""

    slug: str
    name: str
    profiles: list[str]
    metrics: list[MetricRead]


class ThresholdChange(BaseModel):
    """The last audited change of a metric's thresholds or bounds: who and when."""

    by: str
    at: datetime
    action: str
    detail: dict[str, Any]


class MetricAdmin(MetricRead):
    """A metric with its value range and its last audited change."""

    min_value: float | None = Field(description="The lowest value an upload may carry.")
    max_value: float | None = Field(description="The highest value an upload may carry.")
    last_change: ThresholdChange | None


class SystemSettings(BaseModel):
    """A system's settings an admin may change."""

    repository: str | None = Field(
        None,
        max_length=500,
        pattern=HTTP_URL,
        description="Where the commits live (https://github.com/owner/repo); null forgets it.",
    )


class ManifestView(BaseModel):
    """The registered manifest of a system (read-only) and its settings."""

    slug: str
    manifest: dict[str, Any] | None = Field(description="null: no runner registered one.")
    repository: str | None
