"""Reads that cross domains: systems, runs, run detail, comparisons, alerts."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from benchdash.alerts.schemas import AlertRead
from benchdash.alerts.states import AlertStatus
from benchdash.deps import ReadAccess, SessionDep
from benchdash.kit.responses import ERRORS
from benchdash.kit.validation import RunIdPath, RunIdQuery, SlugPath, TextQuery
from benchdash.runs.schemas import Page, RunSummary
from benchdash.runs.states import RunStatus
from benchdash.views import alerts as alert_view
from benchdash.views import overview
from benchdash.views import runs as run_view
from benchdash.views.schemas import Comparison, RunDetail, SystemDetail, SystemRead

router = APIRouter(prefix="/api/v1", responses=ERRORS, dependencies=[ReadAccess])


@router.get("/systems", response_model=list[SystemRead], tags=["systems"])
def read_systems(session: SessionDep) -> list[SystemRead]:
    """Every system with its latest run, open alerts and headline trend."""
    return overview.cards(session=session)


@router.get("/systems/{slug}", response_model=SystemDetail, tags=["systems"])
def read_system(slug: SlugPath, session: SessionDep) -> SystemDetail:
    """One system with its benchmarks, metrics, branches, testbeds and open alerts."""
    return overview.detail(session=session, slug=slug)


@router.get("/runs", response_model=Page[RunSummary], tags=["runs"])
def read_runs(
    session: SessionDep,
    system: TextQuery = None,
    branch: TextQuery = None,
    status: RunStatus | None = None,
    commit: TextQuery = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
) -> Page[RunSummary]:
    """List runs, newest first, filtered by system, branch, status or commit prefix."""
    filters = run_view.RunFilter(system=system, branch=branch, status=status, commit=commit)
    items, total = run_view.list_runs(session=session, filters=filters, limit=limit, offset=offset)
    return Page[RunSummary](items=items, total=total, limit=limit, offset=offset)


@router.get("/runs/{run_id}", response_model=RunDetail, tags=["runs"])
def read_run(run_id: RunIdPath, session: SessionDep) -> RunDetail:
    """One run with every measurement, its baseline, change and verdict."""
    return run_view.detail(session=session, run_id=run_id)


@router.get("/compare", response_model=Comparison, tags=["runs"])
def read_comparison(session: SessionDep, base: RunIdQuery, head: RunIdQuery) -> Comparison:
    """Compare two runs of one system series by series."""
    return run_view.compare(session=session, base_id=base, head_id=head)


@router.get("/alerts", response_model=list[AlertRead], tags=["alerts"])
def read_alerts(
    session: SessionDep,
    status: Annotated[list[AlertStatus] | None, Query()] = None,
    system: TextQuery = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
) -> list[AlertRead]:
    """Alerts, newest first (default: open and acknowledged)."""
    wanted = status or [AlertStatus.OPEN, AlertStatus.ACKNOWLEDGED]
    return alert_view.list_alerts(session=session, status=wanted, system=system, limit=limit)
