"""Wire types of the systems domain."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

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


class BranchRead(BaseModel):
    """A branch and its pinned baseline run."""

    name: str
    base_branch: str | None
    pinned_run_id: int | None


class BaselinePin(BaseModel):
    """Which run to pin as a branch's baseline (null unpins)."""

    run_id: Annotated[int, Field(ge=1, le=2**31 - 1, strict=True)] | None  # true is no run id


class SystemRegistration(BaseModel):
    """What the API stored of a registered manifest."""

    slug: str
    name: str
    profiles: list[str]
    metrics: list[MetricRead]
