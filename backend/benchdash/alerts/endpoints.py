"""Alerts: the list, acknowledging one, summaries and their triage, a branch's badge."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Query, Response

from benchdash.alerts import queries, triage
from benchdash.alerts import service as alert_service
from benchdash.alerts.schemas import AlertAck, AlertRead
from benchdash.alerts.states import AlertStatus
from benchdash.alerts.summary_schemas import (
    AlertSummaryDetail,
    AlertSummaryRead,
    SummaryUpdate,
    TriageNote,
)
from benchdash.auth import service as auth_service
from benchdash.config import get_settings
from benchdash.deps import OptionalPrincipal, ReadAccess, ReadSessionDep, SessionDep
from benchdash.kit.caching import cached_image, etag_matches
from benchdash.kit.responses import ERRORS
from benchdash.kit.validation import INT4_MAX, AlertIdPath, SlugPath, TextQuery

router = APIRouter(prefix="/api/v1", responses=ERRORS)
SVG = "image/svg+xml"
_SVG_CONTENT: dict[str, Any] = {SVG: {"schema": {"type": "string"}}}


@router.get("/alerts", response_model=list[AlertRead], tags=["alerts"], dependencies=[ReadAccess])
def read_alerts(
    session: ReadSessionDep,
    status: Annotated[list[AlertStatus] | None, Query()] = None,
    system: TextQuery = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
) -> list[AlertRead]:
    """Alerts, newest first (default: open and acknowledged)."""
    wanted = status or [AlertStatus.OPEN, AlertStatus.ACKNOWLEDGED]
    return queries.list_alerts(session=session, status=wanted, system=system, limit=limit)


@router.post("/alerts/{alert_id}/acknowledge", response_model=AlertAck, tags=["alerts"])
def acknowledge_alert(
    alert_id: AlertIdPath, session: SessionDep, principal: OptionalPrincipal
) -> AlertAck:
    """Acknowledge an open alert (signed-in user, or a token with trigger or admin scope)."""
    system = alert_service.system_of(session=session, alert_id=alert_id)
    who = auth_service.require(principal, "trigger", system)
    alert = alert_service.acknowledge(session=session, alert_id=alert_id, by=who.name)
    return AlertAck(
        id=alert.id,
        status=alert.status,
        acknowledged_at=alert.acknowledged_at,
        acknowledged_by=alert.acknowledged_by,
    )


@router.get(
    "/badges/{system}.svg",
    tags=["badges"],
    dependencies=[ReadAccess],
    response_class=Response,
    responses={
        200: {"content": _SVG_CONTENT, "description": "The badge"},
        304: {"description": "Not modified (the If-None-Match ETag still holds)"},
    },
)
def read_badge(
    session: ReadSessionDep,
    system: SlugPath,
    branch: Annotated[
        str,
        Query(
            min_length=1,
            max_length=200,
            pattern=r"^[^\x00-\x1f\x7f]*$",
            description="A branch name (git's: no control characters)",
        ),
    ] = "main",
    if_none_match: Annotated[str | None, Header(max_length=200)] = None,
) -> Response:
    """The branch's state as a badge: 'perf | 2 regressions' (red), 'perf | 1 worse (warn)' or
    'perf | 1 suspected' (amber), 'perf | ok' (green), 'perf | not judged yet' or 'perf | no
    data' (grey, also for a system it does not know, uncached).

    Regressions are the branch's open and acknowledged fail-level alerts, worse (warn) its
    warn-level ones; not judged yet, a branch whose newest points are all still learning;
    suspected, its series whose newest point crossed the floors and awaits confirmation.
    Cached for five minutes; the ETag changes when the badge does (If-None-Match gets 304).
    """
    badge = queries.badge_status(session=session, system=system, branch=branch)
    if not badge.known:  # a 200 badge, as shields do: an embedding page shows "no data"
        return Response(badge.svg, media_type=SVG, headers={"Cache-Control": "no-cache"})
    body = None if etag_matches(if_none_match, badge.etag) else badge.svg
    return cached_image(body, SVG, badge.etag, public=get_settings().public_read)


SummaryIdPath = Annotated[int, Path(ge=1, le=INT4_MAX, description="An alert summary id.")]


@router.get(
    "/alert-summaries",
    response_model=list[AlertSummaryRead],
    tags=["alerts"],
    dependencies=[ReadAccess],
)
def read_alert_summaries(
    session: ReadSessionDep,
    status: Annotated[list[AlertStatus] | None, Query()] = None,
    system: TextQuery = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
) -> list[AlertSummaryRead]:
    """Alert summaries, newest first (default: open and acknowledged), with their counts and
    worst alerts."""
    wanted = status or [AlertStatus.OPEN, AlertStatus.ACKNOWLEDGED]
    return queries.list_summaries(session=session, status=wanted, system=system, limit=limit)


@router.get(
    "/alert-summaries/{summary_id}",
    response_model=AlertSummaryDetail,
    tags=["alerts"],
    dependencies=[ReadAccess],
)
def read_alert_summary(summary_id: SummaryIdPath, session: ReadSessionDep) -> AlertSummaryDetail:
    """One alert summary with its alerts, worst first, and counts by level."""
    return queries.get_summary(session=session, summary_id=summary_id)


def _who(session: SessionDep, principal: OptionalPrincipal, summary_id: int) -> str:
    system = triage.system_of(session=session, summary_id=summary_id)
    return auth_service.require(principal, "trigger", system).name


@router.post(
    "/alert-summaries/{summary_id}/acknowledge", response_model=AlertSummaryDetail, tags=["alerts"]
)
def acknowledge_alert_summary(
    summary_id: SummaryIdPath, session: SessionDep, principal: OptionalPrincipal
) -> AlertSummaryDetail:
    """Acknowledge the summary and each of its open alerts (signed-in user, or a token with
    trigger or admin scope; audited)."""
    who = _who(session, principal, summary_id)
    triage.acknowledge(session=session, summary_id=summary_id, by=who)
    return queries.get_summary(session=session, summary_id=summary_id)


@router.post(
    "/alert-summaries/{summary_id}/accept", response_model=AlertSummaryDetail, tags=["alerts"]
)
def accept_alert_summary(
    summary_id: SummaryIdPath, body: TriageNote, session: SessionDep, principal: OptionalPrincipal
) -> AlertSummaryDetail:
    """Accept its steps as expected: each series' baseline restarts at its step, its alerts and
    the summary resolve (trigger scope; audited)."""
    who = _who(session, principal, summary_id)
    triage.accept(session=session, summary_id=summary_id, note=body.note, by=who)
    return queries.get_summary(session=session, summary_id=summary_id)


@router.post(
    "/alert-summaries/{summary_id}/invalid", response_model=AlertSummaryDetail, tags=["alerts"]
)
def mark_alert_summary_invalid(
    summary_id: SummaryIdPath, body: TriageNote, session: SessionDep, principal: OptionalPrincipal
) -> AlertSummaryDetail:
    """Mark it invalid (no regression: noise, a broken run); its open alerts are acknowledged
    and stay until their series recover (trigger scope; audited)."""
    who = _who(session, principal, summary_id)
    triage.mark_invalid(session=session, summary_id=summary_id, note=body.note, by=who)
    return queries.get_summary(session=session, summary_id=summary_id)


@router.patch("/alert-summaries/{summary_id}", response_model=AlertSummaryDetail, tags=["alerts"])
def update_alert_summary(
    summary_id: SummaryIdPath,
    body: SummaryUpdate,
    session: SessionDep,
    principal: OptionalPrincipal,
) -> AlertSummaryDetail:
    """Assign it to a person and link an issue URL (http or https); a field left out stays,
    null clears it (trigger scope; audited)."""
    who = _who(session, principal, summary_id)
    fields = body.model_dump(include=body.model_fields_set)
    triage.update(session=session, summary_id=summary_id, fields=fields, by=who)
    return queries.get_summary(session=session, summary_id=summary_id)
