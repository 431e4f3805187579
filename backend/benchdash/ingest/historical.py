"""A run of a history brought in (`benchdash import --historical`, `run.historical`).

Its verdicts and alerts are decided as for any upload (so the charts show the steps the history
holds), but nobody is paged for the past: no notification is queued, and each alert it opens is
acknowledged at once by "history import". Alerts opened earlier, live, are left as they are.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from benchdash.alerts import service as alert_service
from benchdash.alerts.states import AlertStatus
from benchdash.db import utcnow
from benchdash.kit.arrays import typed_text
from benchdash.notify import outbox
from benchdash.results.judge import Judged
from benchdash.runs.models import Run

BY = "history import"
_ACKNOWLEDGE = typed_text(
    f"""UPDATE alert a SET status = '{AlertStatus.ACKNOWLEDGED}', acknowledged_at = :now,
        acknowledged_by = :by
    FROM series s
    WHERE s.id = ANY(CAST(:ids AS int[])) AND a.benchmark_id = s.benchmark_id
      AND a.metric_id = s.metric_id AND a.branch_id = s.branch_id
      AND a.testbed_id = s.testbed_id AND a.status = '{AlertStatus.OPEN}'
      AND a.opened_at >= :since"""
)


def apply(*, session: Session, run: Run, judged: Sequence[Judged]) -> None:
    """Carry out the run's alert decisions without notifying; acknowledge what they opened."""
    since = utcnow()
    session.info[outbox.HELD] = True
    try:
        alert_service.apply(session=session, run=run, judged=judged)
    finally:
        session.info.pop(outbox.HELD, None)
    session.execute(
        _ACKNOWLEDGE,
        {"ids": [j.series_id for j in judged], "now": utcnow(), "by": BY, "since": since},
    )
