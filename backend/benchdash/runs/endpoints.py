"""Runs: the list, a run's page, comparisons, trigger, cancel, agent reports and heartbeats,
the live event stream."""

from __future__ import annotations

from collections.abc import AsyncIterator
from functools import partial
from typing import Annotated

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from benchdash.auth import service as auth_service
from benchdash.config import get_settings
from benchdash.db import SessionMaker, get_engine, session_maker
from benchdash.deps import OptionalPrincipal, ReadAccess, ReadSessionDep, SessionDep
from benchdash.kit.errors import NotFound
from benchdash.kit.responses import ERRORS
from benchdash.kit.validation import RunIdPath, RunIdQuery, SlugPath, TextQuery
from benchdash.runs import agents, claim, lifecycle, longpoll, queries, refcheck, stream, wakeups
from benchdash.runs import service as run_service
from benchdash.runs.read_models import Comparison, RunDetail
from benchdash.runs.schemas import (
    AgentAck,
    AgentClaim,
    AgentHeartbeat,
    AgentWork,
    Page,
    ReportAck,
    RunCreate,
    RunEvents,
    RunQueued,
    RunReport,
    RunSummary,
)
from benchdash.runs.states import RunStatus, RunTrigger
from benchdash.systems import service as system_service

router = APIRouter(prefix="/api/v1", tags=["runs"], responses=ERRORS)


@router.get("/runs", response_model=Page[RunSummary], dependencies=[ReadAccess])
def read_runs(
    session: ReadSessionDep,
    system: TextQuery = None,
    branch: TextQuery = None,
    status: RunStatus | None = None,
    commit: TextQuery = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
) -> Page[RunSummary]:
    """List runs, newest first, filtered by system, branch, status or commit prefix."""
    filters = queries.RunFilter(system=system, branch=branch, status=status, commit=commit)
    items, total = queries.list_runs(session=session, filters=filters, limit=limit, offset=offset)
    return Page[RunSummary](items=items, total=total, limit=limit, offset=offset)


@router.get("/runs/{run_id}", response_model=RunDetail, dependencies=[ReadAccess])
def read_run(run_id: RunIdPath, session: SessionDep) -> RunDetail:
    """One run with every measurement, its baseline, change and verdict."""
    return queries.detail(session=session, run_id=run_id)


@router.get("/compare", response_model=Comparison, dependencies=[ReadAccess])
def read_comparison(session: ReadSessionDep, base: RunIdQuery, head: RunIdQuery) -> Comparison:
    """Compare two runs of one system series by series."""
    return queries.compare(session=session, base_id=base, head_id=head)


@router.post("/runs", response_model=RunQueued, status_code=201)
def create_run(body: RunCreate, session: SessionDep, principal: OptionalPrincipal) -> RunQueued:
    """Queue a run of a system at a ref (signed-in user or a token with the trigger scope); a
    branch or tag name its source repository lacks is refused (422)."""
    needed = "trigger"
    if body.trigger == RunTrigger.SCHEDULE and principal and principal.may("agent", body.system):
        needed = "agent"  # the agent queues its manifest's cron runs: it needs no trigger scope
    auth_service.require(principal, needed, body.system)
    settings = get_settings()
    ref_warning = refcheck.check(
        session=session, system=body.system, ref=body.ref, timeout_s=settings.ref_check_timeout_s
    )
    run = lifecycle.trigger(
        session=session,
        system=body.system,
        ref=body.ref,
        profile=body.profile,
        benchmarks=body.benchmarks,
        trigger_kind=body.trigger,
        branch=body.branch,
    )
    online = agents.live(session=session, system_id=run.system_id, live_s=settings.agent_live_s)
    warning = None if online else agents.no_agent_warning(body.system, settings.no_agent_wait_s)
    summary = run_service.summary(session=session, run_id=run.id)
    return RunQueued(**summary.model_dump(), warning=warning, ref_warning=ref_warning)


@router.post("/systems/{slug}/agents/heartbeat", response_model=AgentAck)
def heartbeat_agent(
    slug: SlugPath, body: AgentHeartbeat, session: SessionDep, principal: OptionalPrincipal
) -> AgentAck:
    """A runner agent is alive (token with the agent scope for the system)."""
    auth_service.require(principal, "agent", slug)
    live_s = get_settings().agent_live_s
    live = agents.heartbeat(
        session=session, slug=slug, name=body.name, host=body.host, live_s=live_s
    )
    return AgentAck(live_agents=live)


@router.post("/systems/{slug}/agents/claim", response_model=AgentWork)
async def claim_work(
    slug: SlugPath,
    body: AgentClaim,
    request: Request,
    session: SessionDep,
    new_session: Annotated[SessionMaker, Depends(session_maker)],
    principal: OptionalPrincipal,
) -> AgentWork:
    """A runner agent asks for its system's next queued run (agent scope of that system); with
    `wait_s`, an empty queue is waited on (long poll) holding no database connection."""
    auth_service.require(principal, "agent", slug)
    settings = get_settings()
    attempt = partial(
        claim.claim,
        slug=slug,
        name=body.name,
        host=body.host,
        live_s=settings.agent_live_s,
        stale_s=settings.heartbeat_timeout_s,
    )
    got = await longpoll.claim(
        attempt=lambda s: attempt(session=s),
        first=session,
        sessions=new_session,
        system=slug,
        wait_s=min(body.wait_s, settings.claim_max_wait_s),
        dsn=wakeups.conninfo(get_engine().url),
        refresh_s=min(10.0, settings.agent_live_s / 3),
        gone=request.is_disconnected,
    )
    source_url = None
    if got.run_id is not None:
        source_url = await run_in_threadpool(_source_url, new_session, slug)
    return AgentWork(run_id=got.run_id, reason=got.reason, source_url=source_url)


def _source_url(sessions: SessionMaker, slug: str) -> str | None:
    with sessions() as session:
        return system_service.get_by_slug(session=session, slug=slug).source_url


@router.post("/runs/{run_id}/cancel", response_model=RunSummary)
def cancel_run(run_id: RunIdPath, session: SessionDep, principal: OptionalPrincipal) -> RunSummary:
    """Cancel a run: at once when queued, else the agent kills it within seconds."""
    who = auth_service.require(
        principal, "trigger", run_service.system_of(session=session, run_id=run_id)
    )
    lifecycle.cancel(session=session, run_id=run_id, by=who.name)
    return run_service.summary(session=session, run_id=run_id)


@router.post("/runs/{run_id}/report", response_model=ReportAck)
def report_run(
    run_id: RunIdPath, body: RunReport, session: SessionDep, principal: OptionalPrincipal
) -> ReportAck:
    """Agent heartbeat with state, progress and log lines (token with the agent scope)."""
    auth_service.require(principal, "agent", run_service.system_of(session=session, run_id=run_id))
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
    responses={
        200: {
            "model": RunEvents,
            "content": {"text/event-stream": {}},
            "description": "Server-sent events: `event: <kind>` with `data` of that kind's model",
        }
    },
)
async def read_run_events(
    run_id: RunIdPath,
    request: Request,
    new_session: Annotated[SessionMaker, Depends(session_maker)],
    after: Annotated[int, Query(ge=0, le=2**62, description="Resume after this event id")] = 0,
    last_event_id: Annotated[int, Header(ge=0, le=2**62)] = 0,
) -> StreamingResponse:
    """Server-sent events: a snapshot, then state, progress and log events until the run ends."""
    start = max(after, last_event_id)
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
