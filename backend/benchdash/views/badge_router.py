"""GET /api/v1/badges/{system}.svg: a system's status badge for READMEs and pull requests."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Response

from benchdash.config import get_settings
from benchdash.deps import ReadAccess, SessionDep
from benchdash.kit.caching import cached_image, etag_matches
from benchdash.kit.responses import ERRORS
from benchdash.kit.validation import SlugPath
from benchdash.views import badges

router = APIRouter(prefix="/api/v1", tags=["badges"], dependencies=[ReadAccess], responses=ERRORS)
SVG = "image/svg+xml"
_SVG_CONTENT: dict[str, Any] = {SVG: {"schema": {"type": "string"}}}


@router.get(
    "/badges/{system}.svg",
    response_class=Response,
    responses={
        200: {"content": _SVG_CONTENT, "description": "The badge"},
        304: {"description": "Not modified (the If-None-Match ETag still holds)"},
    },
)
def read_badge(
    session: SessionDep,
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
    """The branch's state as a badge: 'perf | 2 regressions' (red), 'perf | 1 suspected'
    (amber), 'perf | ok' (green) or 'perf | no data' (grey, also for a system it does not know,
    uncached).

    Regressions are the branch's open and acknowledged alerts; suspected, its series whose
    newest point crossed the floors and awaits confirmation. Cached for five minutes; the ETag
    changes when the badge does (If-None-Match gets 304).
    """
    badge = badges.status(session=session, system=system, branch=branch)
    if not badge.known:  # a 200 badge, as shields do: an embedding page shows "no data"
        return Response(badge.svg, media_type=SVG, headers={"Cache-Control": "no-cache"})
    body = None if etag_matches(if_none_match, badge.etag) else badge.svg
    return cached_image(body, SVG, badge.etag, public=get_settings().public_read)
