"""The first bad commit each alert's newest found bisection names: read by the alerts list, the
series' steps (chart markers) and the notification sent when a bisection finds it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from benchdash.alerts.models import Alert
from benchdash.alerts.schemas import Culprit
from benchdash.bisect.models import Bisection
from benchdash.bisect.states import BisectState
from benchdash.notify import outbox


def of_alerts(*, session: Session, alert_ids: Sequence[int]) -> dict[int, Culprit]:
    """Each alert's first bad commit (its newest found bisection's), by alert id."""
    if not alert_ids:
        return {}
    rows = session.execute(
        select(Alert.id, Bisection.culprit_sha, Bisection.culprit_subject, Bisection.culprit_author)
        .join(
            Bisection,
            or_(  # its own, or its summary's (one bisection serves the summary's alerts)
                Bisection.alert_id == Alert.id,
                and_(Alert.summary_id.is_not(None), Bisection.summary_id == Alert.summary_id),
            ),
        )
        .where(Alert.id.in_(list(alert_ids)), Bisection.state == BisectState.FOUND)
        .order_by(Bisection.id)
    ).all()
    return {
        int(a): Culprit(sha=str(sha), subject=subject or "", author=author or "")
        for a, sha, subject, author in rows
        if a is not None
    }


def on_steps(*, session: Session, steps: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Series steps (alerts as dicts with `alert_id`) with their `first_bad_commit` (or None)."""
    found = of_alerts(session=session, alert_ids=[s["alert_id"] for s in steps])
    out = []
    for step in steps:
        culprit = found.get(step["alert_id"])
        out.append({**step, "first_bad_commit": culprit.model_dump() if culprit else None})
    return out


def announce(*, session: Session, bisection: Bisection) -> int:
    """Tell the subscribers of the alert's system its first bad commit ("alert.bisected");
    returns how many deliveries were queued (none for a bisection between two runs)."""
    alert = session.get(Alert, bisection.alert_id) if bisection.alert_id else None
    if alert is None or bisection.culprit_sha is None:
        return 0
    return outbox.alert_bisected(
        session=session,
        system_id=alert.system_id,
        branch_id=alert.branch_id,
        benchmark_id=alert.benchmark_id,
        metric_id=alert.metric_id,
        facts={
            "id": alert.id,
            "level": alert.level,
            "change_pct": alert.change_pct,
            "run_id": alert.run_id,
            "bisection_id": bisection.id,
        },
        culprit={
            "sha": bisection.culprit_sha,
            "subject": bisection.culprit_subject or "",
            "author": bisection.culprit_author or "",
        },
    )
