"""Alert summaries: an alert joins the summary of its culprit range as it opens, and the summary
resolves when its last alert does. Both meet concurrent uploads in SQL: the join is an
`INSERT … ON CONFLICT` on the active range's unique key (the summary's row stays locked until
the upload commits), the resolution locks the row before counting what is still active.

Notifications tell of the summary, not of each alert (`notify.outbox.summary_changed`):
`alert.opened` when it opens, `alert.updated` when series join it (a pending delivery takes
the news instead of a new one), `alert.resolved` when it resolves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.alerts.states import AlertStatus
from benchdash.notify import outbox
from benchdash.notify.states import Event
from benchdash.regression.model import AlertKind

WORST_SHOWN = 5  # the worst alerts a notification names

_RANGE_OF = text(
    """SELECT a.system_id, a.branch_id, a.kind, a.run_id, a.last_good_run_id,
              bad.commit AS bad_commit, good.commit AS good_commit
    FROM alert a JOIN run bad ON bad.id = a.run_id
    LEFT JOIN run good ON good.id = a.last_good_run_id WHERE a.id = :id"""
)
# xmax = 0 only on a row this statement inserted: the summary is new.
_UPSERT = text(
    f"""INSERT INTO alert_summary (system_id, branch_id, range_key, kind, first_bad_run_id,
        last_good_run_id, first_bad_commit, last_good_commit, status, opened_at, updated_at)
    VALUES (:system, :branch, :key, :kind, :bad_run, :good_run, :bad_commit, :good_commit,
        '{AlertStatus.OPEN}', now(), now())
    ON CONFLICT (system_id, branch_id, range_key) WHERE status <> '{AlertStatus.RESOLVED}'
    DO UPDATE SET updated_at = now()
    RETURNING id, (xmax = 0) AS created"""
)
_LOCK = text("SELECT status FROM alert_summary WHERE id = :id FOR UPDATE")
_STILL_ACTIVE = text(
    f"SELECT count(*) FROM alert WHERE summary_id = :id AND status <> '{AlertStatus.RESOLVED}'"
)
_RESOLVE = text(
    f"UPDATE alert_summary SET status = '{AlertStatus.RESOLVED}', resolved_at = now(), "
    "updated_at = now() WHERE id = :id"
)
# Worst first: failing before warning, then the larger step.
WORST_FIRST = "CASE a.level WHEN 'fail' THEN 0 ELSE 1 END, a.change_pct DESC NULLS LAST, a.id"
_FACTS = text(
    f"""SELECT s.id, s.status, s.resolution, s.kind, s.first_bad_run_id, s.last_good_run_id,
        s.first_bad_commit, s.last_good_commit, s.assignee, s.issue_url,
        count(a.id) AS alerts,
        count(a.id) FILTER (WHERE a.status <> '{AlertStatus.RESOLVED}') AS active,
        count(a.id) FILTER (WHERE a.level = 'fail') AS fail,
        count(a.id) FILTER (WHERE a.level = 'warn') AS warn,
        count(DISTINCT a.benchmark_id) AS benchmarks
    FROM alert_summary s LEFT JOIN alert a ON a.summary_id = s.id
    WHERE s.id = :id GROUP BY s.id"""
)
_WORST = text(
    f"""SELECT a.id, a.benchmark_id, a.metric_id, b.name AS benchmark, m.name AS metric,
        m.unit, m.direction, t.name AS testbed, a.level, a.change_pct, a.run_id,
        r.commit, a.root_cause ->> 'summary' AS root_cause
    FROM alert a JOIN benchmark b ON b.id = a.benchmark_id JOIN metric m ON m.id = a.metric_id
    JOIN testbed t ON t.id = a.testbed_id JOIN run r ON r.id = a.run_id
    WHERE a.summary_id = :id ORDER BY {WORST_FIRST} LIMIT :n"""
)


def range_key(
    kind: str,
    good_commit: str | None,
    bad_commit: str | None,
    good_run: int | None,
    bad_run: int,
) -> str:
    """The culprit range's key: by commits when the first bad run's commit is known (the same
    range on every testbed), else by runs."""
    prefix = "drift" if kind == AlertKind.DRIFT else "step"
    if bad_commit:
        return f"{prefix}:{good_commit or ''}..{bad_commit}"
    return f"{prefix}-run:{good_run or ''}..{bad_run}"


@dataclass(frozen=True)
class Joined:
    """The summary an alert joined, and whether this alert opened it."""

    summary_id: int
    created: bool


def join(*, session: Session, alert_id: int) -> Joined:
    """Put a newly opened alert in the summary of its culprit range (made when none is
    active)."""
    r = session.execute(_RANGE_OF, {"id": alert_id}).one()
    key = range_key(r.kind, r.good_commit, r.bad_commit, r.last_good_run_id, r.run_id)
    params = {
        "system": r.system_id,
        "branch": r.branch_id,
        "key": key,
        "kind": r.kind,
        "bad_run": r.run_id,
        "good_run": r.last_good_run_id,
        "bad_commit": r.bad_commit,
        "good_commit": r.good_commit,
    }
    found = session.execute(_UPSERT, params).one()
    session.execute(
        text("UPDATE alert SET summary_id = :s WHERE id = :a"), {"s": found.id, "a": alert_id}
    )
    return Joined(int(found.id), bool(found.created))


def settle(*, session: Session, summary_id: int) -> bool:
    """Resolve the summary when none of its alerts is active; True when it resolved now."""
    status = session.scalar(_LOCK, {"id": summary_id})
    if status is None or status == AlertStatus.RESOLVED:
        return False
    if session.scalar(_STILL_ACTIVE, {"id": summary_id}):
        return False
    session.execute(_RESOLVE, {"id": summary_id})
    return True


def facts(*, session: Session, summary_id: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The summary as a notification tells it (id, range, counts, status) and its worst
    alerts (with their names, worst first)."""
    s = session.execute(_FACTS, {"id": summary_id}).one()
    worst = [
        dict(w._mapping) for w in session.execute(_WORST, {"id": summary_id, "n": WORST_SHOWN})
    ]
    summary = {
        "id": s.id,
        "status": s.status,
        "resolution": s.resolution,
        "kind": s.kind,
        "range": {
            "last_good_run_id": s.last_good_run_id,
            "last_good_commit": s.last_good_commit,
            "first_bad_run_id": s.first_bad_run_id,
            "first_bad_commit": s.first_bad_commit,
        },
        "counts": {
            "alerts": s.alerts,
            "active": s.active,
            "fail": s.fail,
            "warn": s.warn,
            "benchmarks": s.benchmarks,
        },
        "assignee": s.assignee,
        "issue_url": s.issue_url,
    }
    return summary, worst


def notify(
    *,
    session: Session,
    event: Event,
    summary_id: int,
    system_id: int,
    branch_id: int,
    about: tuple[int, int, Mapping[str, Any]] | None = None,
) -> int:
    """Tell the system's subscribers of the summary; the alert it names is `about` (benchmark
    id, metric id, facts: the one whose resolution resolved it), else its worst."""
    summary, worst = facts(session=session, summary_id=summary_id)
    if not worst:
        return 0
    if about is None:
        w = worst[0]
        about = (w["benchmark_id"], w["metric_id"], _alert_facts(w))
    benchmark_id, metric_id, alert = about
    return outbox.summary_changed(
        session=session,
        event=event,
        system_id=system_id,
        branch_id=branch_id,
        benchmark_id=benchmark_id,
        metric_id=metric_id,
        facts=alert,
        summary=summary,
        worst=worst,
    )


def _alert_facts(w: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: w[k] for k in ("id", "level", "change_pct", "run_id", "commit")}
    if w.get("root_cause"):
        out["root_cause"] = w["root_cause"]
    return out
