"""The outbox: an event becomes one delivery row per matching subscription and a job on the
`notify` queue, written with the caller's session, so in the very transaction that opens or
resolves the alert or fails the run. Rolled back together, committed together: a restart
loses nothing, and nothing is queued for a change that did not happen.

This domain sits below `runs` and `alerts` (import-linter layers): `alerts.service` and
`runs.lifecycle` call it with the event's facts as data; it reads only its own tables and the
names of `systems`.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import ARRAY, String, cast, or_, select, text
from sqlalchemy.orm import Session

from benchdash.db import utcnow
from benchdash.notify import messages
from benchdash.notify.models import Delivery, Subscription
from benchdash.notify.states import DeliveryStatus, Event
from benchdash.systems.models import Benchmark, Branch, Metric, System

QUEUE = "notify"
DELIVER_TASK = "benchdash.notify.deliver"
# A session whose `info` holds this key queues no alert notifications (a history brought in
# with `benchdash import --historical`: its alerts are in the past, nobody is to be paged).
HELD = "benchdash.notify.held"


def defer(*, session: Session, delivery_id: uuid.UUID) -> int:
    """Enqueue the delivery's job (procrastinate's SQL API, in this transaction)."""
    job_id = session.execute(
        text(
            "SELECT unnest(procrastinate_defer_jobs_v1(ARRAY[ROW(:queue, :task, 0, NULL, NULL, "
            "CAST(:args AS jsonb), NULL)::procrastinate_job_to_defer_v1]))"
        ),
        {
            "queue": QUEUE,
            "task": DELIVER_TASK,
            "args": json.dumps({"delivery_id": str(delivery_id)}),
        },
    ).scalar_one()
    return int(job_id)


def add(
    *,
    session: Session,
    subscription_id: int,
    event: str,
    payload: dict[str, Any],
    summary_id: int | None = None,
) -> Delivery:
    """One delivery row and its job."""
    delivery = Delivery(
        summary_id=summary_id,
        id=uuid.uuid4(),
        subscription_id=subscription_id,
        event=event,
        payload=payload,
        status=DeliveryStatus.PENDING,
        attempts=0,
        created_at=utcnow(),
    )
    session.add(delivery)
    session.flush()
    delivery.job_id = defer(session=session, delivery_id=delivery.id)
    return delivery


def _subscribers(
    session: Session, system_id: int, branch: str, events: Sequence[str]
) -> list[tuple[int, list[str]]]:
    rows = session.execute(
        select(Subscription.id, Subscription.events)
        .where(
            Subscription.system_id == system_id,
            Subscription.events.op("&&")(cast(list(events), ARRAY(String(20)))),
            Subscription.paused_at.is_(None),  # `notify.pause`: nothing queued until resumed
            or_(Subscription.branch.is_(None), Subscription.branch == branch),
        )
        .order_by(Subscription.id)
    ).all()
    return [(int(i), list(e)) for i, e in rows]


def _fan_out(*, session: Session, system_id: int, branch: str, payload: dict[str, Any]) -> int:
    event = payload["event"]
    subs = [i for i, _ in _subscribers(session, system_id, branch, [event])]
    for sub_id in subs:
        add(session=session, subscription_id=sub_id, event=event, payload=payload)
    session.flush()
    return len(subs)


def _names(session: Session, system_id: int, branch_id: int) -> tuple[str, str]:
    row = session.execute(
        select(System.slug, Branch.name)
        .join(Branch, Branch.system_id == System.id)
        .where(System.id == system_id, Branch.id == branch_id)
    ).one()
    return row[0], row[1]


def _subscribed(session: Session, system_id: int) -> bool:
    found = session.scalar(select(Subscription.id).where(Subscription.system_id == system_id))
    return found is not None


def _alert(
    session: Session, benchmark_id: int, metric_id: int, facts: Mapping[str, object]
) -> dict[str, Any]:
    bench = session.scalar(select(Benchmark.name).where(Benchmark.id == benchmark_id))
    metric, unit, direction = session.execute(
        select(Metric.name, Metric.unit, Metric.direction).where(Metric.id == metric_id)
    ).one()
    return {"benchmark": bench, "metric": metric, "unit": unit, "direction": direction, **facts}


def alert_changed(
    *,
    session: Session,
    event: Event,
    system_id: int,
    branch_id: int,
    benchmark_id: int,
    metric_id: int,
    facts: Mapping[str, object],
) -> int:
    """An alert opened, re-graded or resolved; `facts`: id, level, change_pct, run_id (and
    commit), previous_level and graded_runs, or by_run_id. Returns how many deliveries were
    queued."""
    if session.info.get(HELD) or not _subscribed(session, system_id):
        return 0
    system, branch = _names(session, system_id, branch_id)
    alert = _alert(session, benchmark_id, metric_id, facts)
    payload = messages.alert_payload(event=event, system=system, branch=branch, alert=alert)
    return _fan_out(session=session, system_id=system_id, branch=branch, payload=payload)


NEWS = (Event.ALERT_OPENED, Event.ALERT_UPDATED)  # what a pending delivery of a summary takes


def summary_changed(
    *,
    session: Session,
    event: Event,
    system_id: int,
    branch_id: int,
    benchmark_id: int,
    metric_id: int,
    facts: Mapping[str, object],
    summary: Mapping[str, Any],
    worst: Sequence[Mapping[str, Any]],
) -> int:
    """An alert summary opened, grew (`alert.updated`) or resolved; `facts` are the alert it
    names (its worst, or the one whose recovery resolved it), `summary` its id, range, counts
    and status, `worst` its worst alerts. News of an opened or grown summary goes into the
    subscription's delivery of it that is still pending, when there is one: one notification
    for a commit that slowed thirty series. Returns how many deliveries were queued."""
    if session.info.get(HELD) or not _subscribed(session, system_id):
        return 0
    system, branch = _names(session, system_id, branch_id)
    alert = _alert(session, benchmark_id, metric_id, facts)
    told = {**summary, "system": system, "branch": branch, "worst": messages.worst(worst)}

    def payload(ev: str) -> dict[str, Any]:
        return messages.alert_payload(
            event=ev, system=system, branch=branch, alert=alert, summary=told
        )

    wanted = list(NEWS) if event in NEWS else [event]
    queued = 0
    for sub_id, events in _subscribers(session, system_id, branch, wanted):
        if event in NEWS:
            pending = session.scalar(
                select(Delivery)
                .where(
                    Delivery.summary_id == summary["id"],
                    Delivery.subscription_id == sub_id,
                    Delivery.status == DeliveryStatus.PENDING,
                    Delivery.event.in_(list(NEWS)),
                )
                .order_by(Delivery.created_at.desc())
                .limit(1)
                .with_for_update()
            )
            if pending is not None:  # not sent yet: it tells the news too
                pending.payload = payload(pending.event)
                continue
        if event in events:
            add(
                session=session,
                subscription_id=sub_id,
                event=event,
                payload=payload(event),
                summary_id=int(summary["id"]),
            )
            queued += 1
    session.flush()
    return queued


def alert_bisected(
    *,
    session: Session,
    system_id: int,
    branch_id: int,
    benchmark_id: int,
    metric_id: int,
    facts: Mapping[str, object],
    culprit: Mapping[str, str],
) -> int:
    """A bisection of an alert named its first bad commit (`culprit`: sha, subject, author);
    `facts`: the alert's id, level, change_pct, run_id, and bisection_id. An event of its own,
    sent when it is found rather than held for the alert's next message (which may never come:
    a regression that stays has no further event)."""
    if not _subscribed(session, system_id):
        return 0
    system, branch = _names(session, system_id, branch_id)
    alert = _alert(session, benchmark_id, metric_id, facts)
    payload = messages.bisected_payload(
        system=system, branch=branch, alert=alert, culprit=dict(culprit)
    )
    return _fan_out(session=session, system_id=system_id, branch=branch, payload=payload)


def run_failed(*, session: Session, system_id: int, branch_id: int, run: dict[str, Any]) -> int:
    """A run failed (or timed out); `run`: id, status, ref, commit, message."""
    if not _subscribed(session, system_id):
        return 0
    system, branch = _names(session, system_id, branch_id)
    payload = messages.run_payload(system=system, branch=branch, run=run)
    return _fan_out(session=session, system_id=system_id, branch=branch, payload=payload)
