"""Wire types of the runs domain."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import BaseModel

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
