"""Store a document and act on its verdicts: what an upload does, for the API and the demo.

1. `results` validates the document, resolves its series and writes its run (`prepare`); this
   module reads those series' open alerts from `alerts` and hands them to `results` as data,
   which judges and stores the measurements and verdicts (stage one: suspected or not).
2. `alerts` carries out stage two: opens the alert of a confirmed step (CI-fed), resolves
   recovered ones, queues re-runs of a runner-executed run with suspected points, and settles
   a re-run group when its last document arrives, and starts the bisection of an alert so
   confirmed; a bisection step's document moves its bisection on instead (`bisect`).
"""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.alerts import reruns
from benchdash.alerts import service as alert_service
from benchdash.bisect import advance, auto
from benchdash.config import get_settings
from benchdash.ingest import historical, profiles
from benchdash.regression.model import Mode
from benchdash.results import pr as result_pr
from benchdash.results import read as result_read
from benchdash.results import service as result_service
from benchdash.results.schemas import DocumentIn, IngestResponse
from benchdash.runs import service as run_service
from benchdash.runs.states import RunTrigger

_CUSTOM_PLANS = text("SELECT set_config('plan_cache_mode', 'force_custom_plan', true)")


def store(*, session: Session, document: DocumentIn) -> IngestResponse:
    """Ingest `document` in the caller's transaction, then its alerts and re-runs; answer."""
    # Planned for each upload's values: PostgreSQL's generic plans of the history read and the
    # measurement insert (chosen after five executions on a connection) took from 1.5 to 5
    # times as long, depending on the statistics when they were made (bench/ingest.py).
    session.execute(_CUSTOM_PLANS)

    with_profiles = any(r.profile is not None for r in document.results)
    if with_profiles:
        profiles.check(document)
    prepared = result_service.prepare(session=session, document=document)
    if isinstance(prepared, result_service.Prepared):
        alerts = alert_service.open_alerts(session=session, series_ids=prepared.series_ids)
        outcome = result_service.record(session=session, prepared=prepared, open_alerts=alerts)
        if with_profiles:  # before the alerts: a step's root cause reads them
            profiles.store(session=session, document=document, prepared=prepared)
    else:
        outcome = prepared  # stored before: its answer, nothing judged again
    system, branch, run = outcome.system, outcome.branch, outcome.run
    if outcome.created and run.trigger == RunTrigger.BISECT:
        advance.on_run_ended(session=session, run_id=run.id)  # a step: judged by its bisection
    elif outcome.created and document.run.historical:  # the past: decided, nobody paged
        historical.apply(session=session, run=run, judged=outcome.judged)
    elif outcome.created:
        alert_service.apply(session=session, run=run, judged=outcome.judged)
        if outcome.mode is Mode.RUNNER:
            reruns.queue(
                session=session,
                run=run,
                judged=outcome.judged,
                system=system,
                branch=branch,
                count=get_settings().reruns,
            )
        if run.rerun_of is not None:
            reruns.settle(session=session, run_id=run.rerun_of)
            auto.start_for_alerts(session=session, run_ids=[run.rerun_of])
    verdicts = (
        result_read.verdicts_for_run(session=session, run_id=run.id, system=system, branch=branch)
        if not outcome.created or run.rerun_of is not None
        else [j.read(system, branch) for j in outcome.judged]
    )
    counts: dict[str, int] = {}
    for v in verdicts:
        counts[v.level] = counts.get(v.level, 0) + 1
    summary = run_service.to_summary((run, system, branch, outcome.testbed), counts)
    pr = result_pr.pr_verdict(session=session, run=run)  # a pull request: decided at once
    return IngestResponse(created=outcome.created, run=summary, verdicts=verdicts, pr=pr)
