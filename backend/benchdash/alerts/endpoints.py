"""Alerts: the list, acknowledging one, and a branch's status badge."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Response

from benchdash.alerts import queries
from benchdash.alerts import service as alert_service
from benchdash.alerts.schemas import AlertAck, AlertRead
from benchdash.alerts.states import AlertStatus
from benchdash.auth import service as auth_service
from benchdash.config import get_settings
from benchdash.deps import OptionalPrincipal, ReadAccess, ReadSessionDep, SessionDep
from benchdash.kit.caching import cached_image, etag_matches
from benchdash.kit.responses import ERRORS
from benchdash.kit.validation import AlertIdPath, SlugPath, TextQuery

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
