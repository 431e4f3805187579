"""Accepted distribution changes: a maintainer says a step is expected ("new allocator").

The series' baseline restarts at the run named (the detector reads `series_restart` as a
restart), an alert open on that series is resolved, and the change is audited.
"""

from __future__ import annotations

from sqlalchemy import delete, select, text
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from benchdash.alerts import service as alert_service
from benchdash.audit import service as audit_service
from benchdash.db import utcnow
from benchdash.kit.errors import NotFound
from benchdash.results.models import SeriesRestart

_SERIES_OF_RUN = text(
    """
    SELECT m.series_id FROM measurement m
    JOIN run r ON r.id = m.run_id JOIN system sy ON sy.id = r.system_id
    JOIN benchmark b ON b.id = m.benchmark_id JOIN metric mt ON mt.id = m.metric_id
    WHERE m.run_id = :run AND sy.slug = :system AND b.name = :benchmark AND mt.name = :metric
      AND (CAST(:params AS text) IS NULL OR b.params_key = :params)
    """
)


def accept(
    *,
    session: Session,
    system: str,
    benchmark: str,
    metric: str,
    params: str | None,
    run_id: int,
    note: str,
    by: str,
) -> SeriesRestart:
    """Mark the series' step at `run_id` as expected; the baseline restarts there."""
    found = session.scalars(
        _SERIES_OF_RUN,
        {
            "run": run_id,
            "system": system,
            "benchmark": benchmark,
            "metric": metric,
            "params": params,
        },
    ).all()
    if not found:
        raise NotFound(
            f"run {run_id} has no measurement of {system}/{benchmark}/{metric}"
            + (f" with parameters {params}" if params else "")
        )
    if len(found) > 1:
        raise NotFound(f"{benchmark!r} has several parameter sets in run {run_id}: give params")
    series_id = found[0]
    session.execute(
        insert(SeriesRestart)
        .values(series_id=series_id, run_id=run_id, note=note, created_by=by, created_at=utcnow())
        .on_conflict_do_update(
            index_elements=["series_id", "run_id"], set_={"note": note, "created_by": by}
        )
    )
    alert_service.resolve(session=session, series_id=series_id, by_run_id=run_id)
    audit_service.record(
        session=session,
        actor=by,
        action="series.accept_change",
        target=f"{system}/{benchmark}/{metric}",
        detail={"run_id": run_id, "note": note},
    )
    change = session.scalar(
        select(SeriesRestart).where(
            SeriesRestart.series_id == series_id, SeriesRestart.run_id == run_id
        )
    )
    assert change is not None
    return change


def system_of(*, session: Session, change_id: int) -> str:
    """The slug of an accepted change's system, or NotFound."""
    slug = session.scalar(
        text(
            "SELECT sy.slug FROM series_restart c JOIN series s ON s.id = c.series_id "
            "JOIN system sy ON sy.id = s.system_id WHERE c.id = :id"
        ),
        {"id": change_id},
    )
    if slug is None:
        raise NotFound(f"no accepted change {change_id}")
    return str(slug)


def withdraw(*, session: Session, change_id: int, by: str) -> None:
    """Take an accepted change back: the baseline no longer restarts there."""
    change = session.get(SeriesRestart, change_id)
    if change is None:
        raise NotFound(f"no accepted change {change_id}")
    session.execute(delete(SeriesRestart).where(SeriesRestart.id == change_id))
    audit_service.record(
        session=session,
        actor=by,
        action="series.withdraw_change",
        target=f"series {change.series_id}",
        detail={"run_id": change.run_id},
    )


_CHANGES_OF_SERIES = text(
    """SELECT c.id, c.run_id, c.note, c.created_by, c.created_at FROM series_restart c
    WHERE c.series_id = :series ORDER BY c.run_id"""
)
CHANGE_FIELDS = ("id", "run_id", "note", "created_by", "created_at")


def of_series(*, session: Session, series_id: int) -> list[dict[str, object]]:
    """The series' accepted changes, oldest first, as the series read's wire form."""
    rows = session.execute(_CHANGES_OF_SERIES, {"series": series_id}).all()
    return [dict(zip(CHANGE_FIELDS, r, strict=True)) for r in rows]
