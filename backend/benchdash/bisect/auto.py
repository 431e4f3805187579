"""Bisections start by themselves when an alert of a runner-executed system is confirmed.

A runner-executed alert is confirmed by its re-runs (`alerts.reruns.settle`), during the upload
of the last re-run or from the background loop; both then call `start_for_alerts`. An alert
whose first bad run came from the queue (it has a ref and a profile) and that names a last good
run of another commit gets one bisection, never a second one by itself; the alerts of one
summary (`alerts.summaries`) share one.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.alerts.states import AlertStatus
from benchdash.bisect import service
from benchdash.kit.arrays import typed_text
from benchdash.kit.errors import AppError

log = logging.getLogger("benchdash")
AUTO = "benchdash (the alert was confirmed)"
_UNBISECTED = f"""
    SELECT a.id FROM alert a
    JOIN run bad ON bad.id = a.run_id JOIN run good ON good.id = a.last_good_run_id
    WHERE a.status = '{AlertStatus.OPEN}' AND a.confirmed_by = 're-runs'
      AND bad.ref IS NOT NULL AND bad.profile IS NOT NULL
      AND good.commit IS NOT NULL AND bad.commit IS NOT NULL AND good.commit <> bad.commit
      AND NOT EXISTS (SELECT 1 FROM bisection b WHERE b.alert_id = a.id
                      OR b.summary_id = a.summary_id) {{}}
    ORDER BY a.id
"""
_ANY = text(_UNBISECTED.format(""))
_OF_RUNS = typed_text(_UNBISECTED.format("AND a.run_id = ANY(CAST(:runs AS int[]))"))


def start_for_alerts(*, session: Session, run_ids: Sequence[int] | None) -> list[int]:
    """Start a bisection for each confirmed alert of a runner-executed system naming one of
    `run_ids` (None: any) that has none yet; their ids."""
    if run_ids is None:
        alerts = session.scalars(_ANY).all()
    else:
        alerts = session.scalars(_OF_RUNS, {"runs": list(run_ids)}).all()
    started: list[int] = []
    for alert_id in alerts:
        try:
            with session.begin_nested():
                bisection = service.start_from_alert(session=session, alert_id=alert_id, by=AUTO)
        except AppError as exc:
            log.warning("alert %s is not bisected: %s", alert_id, exc.detail)
            continue
        if bisection.id not in started:  # alerts of one summary share their bisection
            started.append(bisection.id)
    return started
