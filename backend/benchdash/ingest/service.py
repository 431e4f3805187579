"""Store a document and act on its verdicts: what an upload does, for the API and the demo."""

from __future__ import annotations

from sqlalchemy.orm import Session

from benchdash.alerts import service as alert_service
from benchdash.results import read as result_read
from benchdash.results import service as result_service
from benchdash.results.schemas import DocumentIn, IngestResponse
from benchdash.runs import service as run_service


def store(*, session: Session, document: DocumentIn) -> IngestResponse:
    """Ingest `document` in the caller's transaction, open or resolve alerts, and answer."""
    outcome = result_service.ingest(session=session, document=document)
    system, branch = outcome.system, outcome.branch
    if outcome.created:
        alert_service.apply_verdicts(
            session=session,
            run=outcome.run,
            judged=outcome.judged,
            active_alerts=outcome.active_alerts,
        )
        verdicts = [j.read(system, branch) for j in outcome.judged]
    else:
        verdicts = result_read.verdicts_for_run(
            session=session, run_id=outcome.run.id, system=system, branch=branch
        )
    counts: dict[str, int] = {}
    for v in verdicts:
        counts[v.level] = counts.get(v.level, 0) + 1
    run = run_service.to_summary((outcome.run, system, branch, outcome.testbed), counts)
    return IngestResponse(created=outcome.created, run=run, verdicts=verdicts)
