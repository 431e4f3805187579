"""The range a metric's values can take: declared in the manifest (`min`, `max`), and for a
`%` unit 0–100 unless the manifest says otherwise (a CPU share may exceed 100: one core is 100).

An upload with a value outside its metric's range is refused (422), nothing stored.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from benchdash.audit import service as audit_service
from benchdash.kit.errors import NotFound
from benchdash.systems.models import Metric, System

PERCENT = "%"


def effective(
    unit: str, min_value: float | None, max_value: float | None
) -> tuple[float | None, float | None]:
    """The (low, high) a value must lie within; None is unbounded on that side."""
    if unit == PERCENT:
        return (0.0 if min_value is None else min_value, 100.0 if max_value is None else max_value)
    return min_value, max_value


def outside(value: float, low: float | None, high: float | None) -> bool:
    """Whether `value` lies outside [low, high]."""
    return (low is not None and value < low) or (high is not None and value > high)


def describe(low: float | None, high: float | None) -> str:
    """ "between 0 and 100", "at least 0", "at most 5"."""
    if low is not None and high is not None:
        return f"between {low:g} and {high:g}"
    return f"at least {low:g}" if low is not None else f"at most {high:g}"


def apply(
    *,
    session: Session,
    system: System,
    metric: Metric,
    low: float | None,
    high: float | None,
    by: str,
) -> None:
    """Set a metric's declared bounds, with an audit event when they change."""
    old = (metric.min_value, metric.max_value)
    if old == (low, high):
        return
    metric.min_value, metric.max_value = low, high
    audit_service.record(
        session=session,
        actor=by,
        action="bounds.set",
        target=f"{system.slug}/{metric.name}",
        detail={"from": {"min": old[0], "max": old[1]}, "to": {"min": low, "max": high}},
    )
    session.flush()


def set_declared(
    *,
    session: Session,
    system: System,
    metric_name: str,
    low: float | None,
    high: float | None,
    by: str,
) -> Metric:
    """Change a metric's declared bounds on an admin's request (audited like its thresholds);
    later uploads are checked against them. Registering a manifest sets them again."""
    metric = session.scalar(
        select(Metric).where(Metric.system_id == system.id, Metric.name == metric_name)
    )
    if metric is None:
        raise NotFound(f"system {system.slug!r} has no metric {metric_name!r}")
    apply(session=session, system=system, metric=metric, low=low, high=high, by=by)
    return metric
