"""Alerts: opened only for a confirmed step (naming its first bad run), one per step, resolved
when the series is back at its old level, acknowledged on request.

The decisions come from the pure detector (`regression.detector`): `apply` carries out what
an upload's assessments decided; re-runs of runner-executed systems are in `alerts.reruns`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from benchdash.alerts import summaries
from benchdash.alerts.models import Alert
from benchdash.alerts.states import AlertStatus
from benchdash.db import utcnow
from benchdash.kit.arrays import typed_text
from benchdash.kit.errors import Conflict, NotFound
from benchdash.notify import outbox
from benchdash.notify.states import Event
from benchdash.profiles import service as profile_service
from benchdash.regression.model import Action, AlertDecision, AlertKind, OpenAlert, Stage
from benchdash.results import store
from benchdash.results.judge import Judged
from benchdash.results.models import Series
from benchdash.runs.models import Run
from benchdash.systems import service as system_service

_OPEN_ALERTS = typed_text(
    f"""
    SELECT s.id, a.run_id, coalesce(a.baseline_value, v.baseline_value),
           coalesce(a.warn_floor, v.floor_warn, v.warn_threshold), a.kind, a.level,
           coalesce(a.change_pct, v.change_pct)
    FROM alert a
    JOIN series s ON s.benchmark_id = a.benchmark_id AND s.metric_id = a.metric_id
                 AND s.branch_id = a.branch_id AND s.testbed_id = a.testbed_id
    JOIN verdict v ON v.id = a.verdict_id
    WHERE s.id = ANY(CAST(:ids AS int[])) AND a.status <> '{AlertStatus.RESOLVED}'
    """
)
# The series' open step alert (locked), graded again; its level before, for the notification.
_REGRADE = text(
    f"""
    WITH old AS (
        SELECT a.id, a.level FROM alert a
        JOIN series s ON s.benchmark_id = a.benchmark_id AND s.metric_id = a.metric_id
                     AND s.branch_id = a.branch_id AND s.testbed_id = a.testbed_id
        WHERE s.id = :series AND a.run_id = :run AND a.kind = '{AlertKind.STEP}'
          AND a.status <> '{AlertStatus.RESOLVED}'
        FOR UPDATE OF a
    )
    UPDATE alert a SET level = :level, change_pct = :change, graded_runs = :runs,
        regraded_at = now()
    FROM old WHERE a.id = old.id RETURNING a.id, old.level
    """
)
_VERDICT_OF = text(
    "SELECT v.id FROM measurement m JOIN verdict v ON v.measurement_id = m.id "
    "WHERE m.series_id = :series AND m.run_id = :run"
)


def open_alerts(*, session: Session, series_ids: Sequence[int]) -> Mapping[int, OpenAlert]:
    """The alert that is not resolved of each series that has one, as the detector reads it."""
    rows = session.execute(_OPEN_ALERTS, {"ids": list(series_ids)}).all()
    return {
        sid: OpenAlert(run_id, base, floor, AlertKind(kind), level, change)
        for sid, run_id, base, floor, kind, level, change in rows
        if base is not None and floor is not None
    }


def regrade(*, session: Session, series_id: int, decision: AlertDecision) -> None:
    """Store an open step alert's new grade (`regression.alerting.regrade`); a new level
    notifies its subscribers."""
    assert decision.level is not None and decision.first_bad_run_id is not None
    params = {
        "series": series_id,
        "run": decision.first_bad_run_id,
        "level": decision.level.value,
        "change": decision.change_pct,
        "runs": decision.graded_runs,
    }
    found = session.execute(_REGRADE, params).first()
    if found is None or found.level == decision.level.value:
        return
    facts = {
        "id": found.id,
        "level": decision.level.value,
        "previous_level": found.level,
        "change_pct": decision.change_pct,
        "run_id": decision.first_bad_run_id,
        "graded_runs": decision.graded_runs,
    }
    _notify(session, Event.ALERT_REGRADED, session.get_one(Series, series_id), facts)


def resolve(*, session: Session, series_id: int, by_run_id: int) -> None:
    """Resolve the series' alert that is not resolved yet, if any."""
    series = session.get_one(Series, series_id)
    resolved = session.execute(
        update(Alert)
        .where(
            Alert.benchmark_id == series.benchmark_id,
            Alert.metric_id == series.metric_id,
            Alert.branch_id == series.branch_id,
            Alert.testbed_id == series.testbed_id,
            Alert.status != AlertStatus.RESOLVED,
        )
        .values(status=AlertStatus.RESOLVED, resolved_at=utcnow(), resolved_by_run_id=by_run_id)
        .returning(Alert.id, Alert.level, Alert.change_pct, Alert.run_id, Alert.summary_id)
        .execution_options(synchronize_session=False)
    ).all()
    for alert_id, level, change_pct, run_id, summary_id in resolved:  # the outbox, this transaction
        facts = {"id": alert_id, "level": level, "change_pct": change_pct, "run_id": run_id}
        facts["by_run_id"] = by_run_id
        if summary_id is None:  # opened before summaries (0024): told of alone
            _notify(session, Event.ALERT_RESOLVED, series, facts)
        elif summaries.settle(session=session, summary_id=summary_id):  # its last alert
            summaries.notify(
                session=session,
                event=Event.ALERT_RESOLVED,
                summary_id=summary_id,
                system_id=series.system_id,
                branch_id=series.branch_id,
                about=(series.benchmark_id, series.metric_id, facts),
            )


def _notify(session: Session, event: Event, series: Series, facts: Mapping[str, object]) -> None:
    outbox.alert_changed(
        session=session,
        event=event,
        system_id=series.system_id,
        branch_id=series.branch_id,
        benchmark_id=series.benchmark_id,
        metric_id=series.metric_id,
        facts=facts,
    )


def open_step(
    *,
    session: Session,
    series_id: int,
    decision: AlertDecision,
    by_run_id: int,
    verdict_id: int | None = None,
) -> None:
    """Open the alert of a confirmed step (its first bad run's verdict becomes confirmed) or of
    a drift (naming its window's first run; no verdict changes stage)."""
    assert decision.first_bad_run_id is not None and decision.level is not None
    if decision.supersedes:
        resolve(session=session, series_id=series_id, by_run_id=by_run_id)
    if verdict_id is None:
        verdict_id = session.scalar(
            _VERDICT_OF, {"series": series_id, "run": decision.first_bad_run_id}
        )
    if verdict_id is None:
        return  # the first bad run's point is gone (deleted run): nothing to name
    if decision.kind == AlertKind.STEP:  # a drift names a window: no run of it becomes a step
        how = {
            "change-point": "a change point",
            "persistence": "the next runs staying worse",
            "window": "the runs since shifted together",
            "re-runs": "its re-runs",
        }.get(decision.confirmed_by or "", "confirmation")
        store.set_stage(
            session=session,
            verdict_id=verdict_id,
            stage=Stage.CONFIRMED,
            note=f" Confirmed by {how}: an alert names this run.",
        )
    drift = None
    if decision.kind == AlertKind.DRIFT:
        drift = {
            "window_runs": decision.window_runs,
            "contributors": [
                {"run_id": c.run_id, "commit": c.commit, "change_pct": c.change_pct}
                for c in decision.contributors
            ],
        }
    series = session.get_one(Series, series_id)
    root_cause = _root_cause(session, decision, series)
    opened = session.execute(
        insert(Alert)
        .values(
            system_id=series.system_id,
            benchmark_id=series.benchmark_id,
            metric_id=series.metric_id,
            branch_id=series.branch_id,
            testbed_id=series.testbed_id,
            verdict_id=verdict_id,
            run_id=decision.first_bad_run_id,
            last_good_run_id=decision.last_good_run_id,
            level=decision.level.value,
            baseline_value=decision.baseline_value,
            warn_floor=decision.warn_floor,
            change_pct=decision.change_pct,
            p_value=decision.p_value,
            confirmed_by=decision.confirmed_by,
            kind=decision.kind,
            drift=drift,
            root_cause=root_cause,
            status=AlertStatus.OPEN,
            opened_at=utcnow(),
        )
        .on_conflict_do_nothing(
            index_elements=["benchmark_id", "metric_id", "branch_id", "testbed_id"],
            index_where=text(f"status <> '{AlertStatus.RESOLVED}'"),
        )
        .returning(Alert.id)
    ).scalar()
    if opened is not None:  # its summary, and the outbox row, in this transaction
        joined = summaries.join(session=session, alert_id=opened)
        summaries.notify(
            session=session,
            event=Event.ALERT_OPENED if joined.created else Event.ALERT_UPDATED,
            summary_id=joined.summary_id,
            system_id=series.system_id,
            branch_id=series.branch_id,
        )


def _root_cause(session: Session, decision: AlertDecision, series: Series) -> dict[str, Any] | None:
    """A step's differential profile (last good run → first bad run), when both have one."""
    if decision.kind != AlertKind.STEP or decision.last_good_run_id is None:
        return None
    assert decision.first_bad_run_id is not None
    return profile_service.root_cause(
        session=session,
        base_run_id=decision.last_good_run_id,
        head_run_id=decision.first_bad_run_id,
        benchmark_id=series.benchmark_id,
        metric_id=series.metric_id,
    )


def apply(*, session: Session, run: Run, judged: Sequence[Judged]) -> None:
    """Carry out each assessment's alert decision (re-runs decide nothing themselves)."""
    if run.rerun_of is not None:
        return
    for j in judged:
        decision = j.assessment.decision
        if decision.action is Action.OPEN:
            own = j.verdict_id if decision.first_bad_run_id == run.id else None
            open_step(
                session=session,
                series_id=j.series_id,
                decision=decision,
                by_run_id=run.id,
                verdict_id=own,
            )
        elif decision.action is Action.RESOLVE:
            resolve(session=session, series_id=j.series_id, by_run_id=run.id)
        elif decision.action is Action.KEEP and decision.level is not None:
            regrade(session=session, series_id=j.series_id, decision=decision)


def system_of(*, session: Session, alert_id: int) -> str:
    """The slug of the alert's system, or NotFound (checked before authorising)."""
    return system_service.slug_owning(session=session, model=Alert, row_id=alert_id, what="alert")


def acknowledge(*, session: Session, alert_id: int, by: str) -> Alert:
    """Mark an open alert acknowledged."""
    alert = session.scalar(select(Alert).where(Alert.id == alert_id).with_for_update())
    if alert is None:
        raise NotFound(f"no alert {alert_id}")
    if alert.status == AlertStatus.RESOLVED:
        raise Conflict(f"alert {alert_id} is already resolved")
    if alert.status == AlertStatus.OPEN:
        alert.status = AlertStatus.ACKNOWLEDGED
        alert.acknowledged_at = utcnow()
        alert.acknowledged_by = by
        session.flush()
    return alert


_STEPS = text(
    """SELECT a.id, a.run_id, a.level, a.status, a.confirmed_by, a.change_pct, r.commit
    FROM series s JOIN alert a ON a.benchmark_id = s.benchmark_id AND a.metric_id = s.metric_id
        AND a.branch_id = s.branch_id AND a.testbed_id = s.testbed_id
    JOIN run r ON r.id = a.run_id
    WHERE s.id = :series ORDER BY a.opened_at"""
)
STEP_FIELDS = ("alert_id", "run_id", "level", "status", "confirmed_by", "change_pct", "commit")


def steps(*, session: Session, series_id: int) -> list[dict[str, object]]:
    """Every alert of the series (any state), oldest first, as the series read's wire form."""
    rows = session.execute(_STEPS, {"series": series_id}).all()
    return [dict(zip(STEP_FIELDS, r, strict=True)) for r in rows]
