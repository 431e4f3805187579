"""Runs: list, read, compare."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from benchdash.deps import ReadAccess, SessionDep
from benchdash.kit.responses import ERRORS
from benchdash.results.schemas import RunSummary
from benchdash.runs import service as run_service
from benchdash.runs.schemas import Comparison, Page, RunDetail

router = APIRouter(prefix="/api/v1", tags=["runs"], dependencies=[ReadAccess], responses=ERRORS)


@router.get("/runs", response_model=Page[RunSummary])
def read_runs(
    session: SessionDep,
    system: str | None = None,
    branch: str | None = None,
    status: str | None = None,
    commit: str | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> Page[RunSummary]:
    """List runs, newest first, filtered by system, branch, status or commit prefix."""
    filters = run_service.RunFilter(system=system, branch=branch, status=status, commit=commit)
    items, total = run_service.list_runs(
        session=session, filters=filters, limit=limit, offset=offset
    )
    return Page[RunSummary](items=items, total=total, limit=limit, offset=offset)


@router.get("/runs/{run_id}", response_model=RunDetail)
def read_run(run_id: int, session: SessionDep) -> RunDetail:
    """One run with every measurement, its baseline, change and verdict."""
    return run_service.detail(session=session, run_id=run_id)


@router.get("/compare", response_model=Comparison)
def read_comparison(
    session: SessionDep, base: Annotated[int, Query()], head: Annotated[int, Query()]
) -> Comparison:
    """Compare two runs of one system series by series."""
    return run_service.compare(session=session, base_id=base, head_id=head)
