"""Runs: list, read, compare."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import StreamingResponse

from benchdash.auth import service as auth_service
from benchdash.db import SessionMaker, session_maker
from benchdash.deps import OptionalPrincipal, ReadAccess, SessionDep
from benchdash.kit.errors import NotFound
from benchdash.kit.responses import ERRORS
from benchdash.results.schemas import RunSummary
from benchdash.runs import lifecycle, stream
from benchdash.runs import service as run_service
from benchdash.runs.schemas import (
    Comparison,
    Page,
    ReportAck,
    RunCreate,
    RunDetail,
    RunReport,
)

router = APIRouter(prefix="/api/v1", tags=["runs"], responses=ERRORS)


@router.get("/runs", response_model=Page[RunSummary], dependencies=[ReadAccess])
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


@router.get("/runs/{run_id}", response_model=RunDetail, dependencies=[ReadAccess])
def read_run(run_id: int, session: SessionDep) -> RunDetail:
    """One run with every measurement, its baseline, change and verdict."""
    return run_service.detail(session=session, run_id=run_id)


@router.get("/compare", response_model=Comparison, dependencies=[ReadAccess])
def read_comparison(
    session: SessionDep, base: Annotated[int, Query()], head: Annotated[int, Query()]
) -> Comparison:
    """Compare two runs of one system series by series."""
    return run_service.compare(session=session, base_id=base, head_id=head)


@router.post("/runs", response_model=RunSummary, status_code=201)
def create_run(body: RunCreate, session: SessionDep, principal: OptionalPrincipal) -> RunSummary:
    """Queue a run of a system at a ref (signed-in user or a token with the trigger scope)."""
    auth_service.require(principal, "trigger", body.system)
    run = lifecycle.trigger(
        session=session,
        system=body.system,
        ref=body.ref,
        profile=body.profile,
        benchmarks=body.benchmarks,
        trigger_kind=body.trigger,
        branch=body.branch,
    )
    return run_service.summary(session=session, run_id=run.id)


@router.post("/runs/{run_id}/cancel", response_model=RunSummary)
def cancel_run(run_id: int, session: SessionDep, principal: OptionalPrincipal) -> RunSummary:
    """Cancel a run: at once when queued, else the agent kills it within seconds."""
    system = run_service.summary(session=session, run_id=run_id).system
    who = auth_service.require(principal, "trigger", system)
    lifecycle.cancel(session=session, run_id=run_id, by=who.name)
    return run_service.summary(session=session, run_id=run_id)


@router.post("/runs/{run_id}/report", response_model=ReportAck)
def report_run(
    run_id: int, body: RunReport, session: SessionDep, principal: OptionalPrincipal
) -> ReportAck:
    """Agent heartbeat with state, progress and log lines (token with the upload scope)."""
    system = run_service.summary(session=session, run_id=run_id).system
    auth_service.require(principal, "upload", system)
    run = lifecycle.report(
        session=session,
        run_id=run_id,
        status=body.status,
        message=body.message,
        progress=body.progress.model_dump() if body.progress else None,
        lines=body.lines,
        agent=body.agent,
    )
    return ReportAck(status=run.status, cancel_requested=run.cancel_requested)


@router.get(
    "/runs/{run_id}/events",
    dependencies=[ReadAccess],
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {}}, "description": "Event stream"}},
)
async def read_run_events(
    run_id: int,
    request: Request,
    new_session: Annotated[SessionMaker, Depends(session_maker)],
    after: Annotated[int, Query(ge=0, description="Resume after this event id")] = 0,
    last_event_id: Annotated[int | None, Header()] = None,
) -> StreamingResponse:
    """Server-sent events: a snapshot, then state, progress and log events until the run ends."""
    start = max(after, last_event_id or 0)
    stream_ = stream.events(new_session, run_id, start, request.is_disconnected)
    first = await anext(stream_, None)
    if first is None:
        raise NotFound(f"no run {run_id}")

    async def body() -> AsyncIterator[str]:
        yield first
        async for chunk in stream_:
            yield chunk

    return StreamingResponse(
        body(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"}
    )
