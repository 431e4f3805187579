"""Bisections: start one from an alert or two runs, cancel it, read it, list an alert's; the
agent's answer to a bisection's `revlist` task."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Response

from benchdash.alerts import service as alert_service
from benchdash.auth import service as auth_service
from benchdash.bisect import queries, service
from benchdash.bisect.schemas import BisectFromAlert, BisectFromRuns, BisectionRead, CommitsIn
from benchdash.deps import OptionalPrincipal, ReadAccess, SessionDep
from benchdash.kit.responses import ERRORS
from benchdash.kit.validation import AlertIdPath, RunIdPath
from benchdash.runs import service as run_service

router = APIRouter(prefix="/api/v1", tags=["bisections"], responses=ERRORS)
BisectionIdPath = Annotated[int, Path(ge=1, le=2**31 - 1, description="A bisection id.")]


@router.post("/alerts/{alert_id}/bisections", response_model=BisectionRead, status_code=201)
def bisect_alert(
    alert_id: AlertIdPath,
    body: BisectFromAlert,
    session: SessionDep,
    principal: OptionalPrincipal,
    response: Response,
) -> BisectionRead:
    """Bisect the alert's commit range (trigger scope on its system); when another alert of its
    summary is bisected (running or found), that bisection is the answer (200)."""
    system = alert_service.system_of(session=session, alert_id=alert_id)
    who = auth_service.require(principal, "trigger", system)
    b = service.start_from_alert(
        session=session, alert_id=alert_id, first_parent=body.first_parent, by=who.name
    )
    if b.alert_id != alert_id:
        response.status_code = 200
    return queries.one(session=session, bisection_id=b.id)


@router.post("/bisections", response_model=BisectionRead, status_code=201)
def bisect_runs(
    body: BisectFromRuns, session: SessionDep, principal: OptionalPrincipal
) -> BisectionRead:
    """Bisect between a good and a bad run for one benchmark's metric (trigger scope)."""
    system = run_service.system_of(session=session, run_id=body.bad_run_id)
    who = auth_service.require(principal, "trigger", system)
    b = service.start_from_runs(
        session=session,
        good_run_id=body.good_run_id,
        bad_run_id=body.bad_run_id,
        benchmark=body.benchmark,
        params_key=body.params,
        metric=body.metric,
        first_parent=body.first_parent,
        by=who.name,
    )
    return queries.one(session=session, bisection_id=b.id)


@router.get("/bisections/{bisection_id}", response_model=BisectionRead, dependencies=[ReadAccess])
def read_bisection(bisection_id: BisectionIdPath, session: SessionDep) -> BisectionRead:
    """One bisection: its range, steps with their verdicts, and result."""
    return queries.one(session=session, bisection_id=bisection_id)


@router.get(
    "/alerts/{alert_id}/bisections",
    response_model=list[BisectionRead],
    dependencies=[ReadAccess],
)
def read_alert_bisections(alert_id: AlertIdPath, session: SessionDep) -> list[BisectionRead]:
    """The alert's bisections, newest first."""
    alert_service.system_of(session=session, alert_id=alert_id)  # 404 for an unknown alert
    return queries.of_alert(session=session, alert_id=alert_id)


@router.post("/bisections/{bisection_id}/cancel", response_model=BisectionRead)
def cancel_bisection(
    bisection_id: BisectionIdPath, session: SessionDep, principal: OptionalPrincipal
) -> BisectionRead:
    """Stop a running bisection and cancel its run in flight (trigger scope)."""
    system = service.system_of(session=session, bisection_id=bisection_id)
    who = auth_service.require(principal, "trigger", system)
    service.cancel(session=session, bisection_id=bisection_id, by=who.name)
    return queries.one(session=session, bisection_id=bisection_id)


@router.post("/runs/{run_id}/commits", response_model=BisectionRead)
def report_commits(
    run_id: RunIdPath, body: CommitsIn, session: SessionDep, principal: OptionalPrincipal
) -> BisectionRead:
    """An agent's answer to a `revlist` task: the range's commits (token with the agent scope)."""
    auth_service.require(principal, "agent", run_service.system_of(session=session, run_id=run_id))
    commits = [c.model_dump() for c in body.commits] if body.commits is not None else None
    b = service.record_commits(session=session, run_id=run_id, commits=commits, error=body.error)
    return queries.one(session=session, bisection_id=b.id)
