"""Wire types of the series batch (GET /api/v1/series/batch): every series of a system page
in one answer, points as columns (one array per field) indexing a shared table of runs."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from benchdash.alerts.schemas import ChangeRead
from benchdash.runs.environment import EnvironmentChange
from benchdash.series.schemas import PointColumns, SeriesState, SeriesStep


class BatchView(BaseModel):
    """One testbed × profile of the branch, for the page's selector."""

    testbed: str
    profile: str | None
    runs: int = Field(description="Runs with measurements on this testbed and profile.")
    series: int = Field(description="Series of the branch on this testbed.")
    last_at: datetime = Field(description="When its newest run started.")


class BatchRuns(BaseModel):
    """The runs the answer's points belong to, as columns; a series' `run` indexes them."""

    id: list[int]
    commit: list[str | None]
    t: list[float] = Field(description="When each run started, Unix time in milliseconds.")


class BatchPoints(PointColumns):
    """A series' points as columns, oldest first: one array per field, all of one length."""

    run: list[int] = Field(description="Each point's index into `runs`.")


class BatchSeries(BaseModel):
    """One series of the page: its key, its state and its points as columns (oldest first)."""

    benchmark: str
    benchmark_id: int
    params_key: str = Field(description="Canonical JSON of the parameters.")
    parameters: dict[str, Any]
    metric: str
    state: SeriesState
    total: int = Field(description="Points in range before downsampling.")
    downsampled: bool
    points: BatchPoints
    steps: list[SeriesStep] = Field(default_factory=list)
    changes: list[ChangeRead] = Field(default_factory=list)


class SeriesBatch(BaseModel):
    """Every series of a system's branch on one testbed (and profile), worst first."""

    system: str
    branch: str
    testbed: str | None = Field(description="The testbed shown: asked for, or the default view's.")
    profile: str | None = Field(description="The profile shown (null: every profile).")
    views: list[BatchView] = Field(description="Every testbed × profile, newest first.")
    runs: BatchRuns
    series: list[BatchSeries]
    truncated: bool = Field(description="More series matched than `limit`; the worst are kept.")
    environment_changes: list[EnvironmentChange] = Field(
        default_factory=list,
        description="Runs of the view's testbed and branch whose environment (compiler, kernel, "
        "CPU …) differs from the previous run's, oldest first: marks on every chart of the page.",
    )
