"""A system's branch in a few words, for a README badge: regressions, suspicions, ok, no data.

Regressions are the branch's alerts that are not resolved (open or acknowledged), read through
the alerts view; suspected are the branch's series whose newest point crossed its floors and
awaits confirmation (results' read side). The badge's ETag is a hash of its SVG, so it changes
exactly when the badge does.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from sqlalchemy.orm import Session

from benchdash.alerts.states import ACTIVE_ALERTS
from benchdash.kit.badge import BadgeColor, badge_svg
from benchdash.kit.errors import NotFound
from benchdash.regression.model import Stage
from benchdash.results import read as result_read
from benchdash.systems import service as system_service
from benchdash.views import alerts as alert_view

LABEL = "perf"
MAX_COUNTED = 1000  # "1000 regressions" says enough


@dataclass(frozen=True)
class Badge:
    """What a badge says, in what colour, whether its system exists, and its SVG and ETag."""

    message: str
    color: BadgeColor
    known: bool
    svg: bytes
    etag: str


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _badge(system: str, branch: str, message: str, color: BadgeColor, known: bool) -> Badge:
    title = f"{system} on {branch}: {LABEL} {message}"
    svg = badge_svg(LABEL, message, color, title=title).encode()
    etag = '"' + hashlib.blake2b(svg, digest_size=12).hexdigest() + '"'
    return Badge(message, color, known, svg, etag)


def status(*, session: Session, system: str, branch: str) -> Badge:
    """The badge of `system` on `branch`; an unknown system gets a grey 'no data' one
    (`known` False) rather than an error, so an embedding page shows a badge either way."""
    try:
        found = system_service.get_by_slug(session=session, slug=system)
    except NotFound:
        return _badge(system, branch, "no data", BadgeColor.GREY, known=False)
    alerts = alert_view.list_alerts(
        session=session,
        status=list(ACTIVE_ALERTS),
        system=system,
        branch=branch,
        limit=MAX_COUNTED,
    )
    if alerts:
        return _badge(system, branch, _plural(len(alerts), "regression"), BadgeColor.RED, True)
    stages = result_read.branch_stages(session=session, system_id=found.id, branch=branch)
    if stages[Stage.SUSPECTED.value]:
        message = f"{stages[Stage.SUSPECTED.value]} suspected"
        return _badge(system, branch, message, BadgeColor.AMBER, True)
    if stages:
        return _badge(system, branch, "ok", BadgeColor.GREEN, True)
    return _badge(system, branch, "no data", BadgeColor.GREY, True)
