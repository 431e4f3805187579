"""Bisections: start one (from an alert or from two runs), take an agent's list of commits,
cancel. Each step's run and the decisions between them are in `bisect.advance`.

The first run of a bisection is a task for an agent (`run.task`, kind `revlist`, see
runners/CONTRACT.md): it lists `good..bad` from the repository it checks out and answers with
`POST /api/v1/runs/{id}/commits`; the steps are ordinary runs (trigger `bisect`, only the
affected benchmark, the same profile) that are not accepted into the series' history.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from benchdash.alerts.models import Alert
from benchdash.bisect import advance
from benchdash.bisect.models import Bisection
from benchdash.bisect.states import BisectState, Verdict
from benchdash.db import utcnow
from benchdash.kit.errors import Conflict, InvalidInput, NotFound
from benchdash.runs import lifecycle
from benchdash.runs.models import Run
from benchdash.runs.states import RunStatus, RunTrigger
from benchdash.systems import service as system_service
from benchdash.systems.models import Benchmark, Branch, Metric, System


def _run(session: Session, run_id: int | None, what: str) -> Run:
    run = session.get(Run, run_id) if run_id is not None else None
    if run is None:
        raise NotFound(f"no {what} run {run_id}")
    return run


def _begin(
    *,
    session: Session,
    good: Run,
    bad: Run,
    benchmark: Benchmark,
    metric_id: int,
    alert_id: int | None,
    first_parent: bool,
    by: str,
    summary_id: int | None = None,
) -> Bisection:
    """Check the two ends, store the bisection and queue the agent's task listing the range."""
    for end, name in ((good, "good"), (bad, "bad")):
        if end.status != RunStatus.COMPLETED or not end.commit:
            raise Conflict(f"the {name} run {end.id} has no completed measurement of a commit")
    if good.system_id != bad.system_id or benchmark.system_id != bad.system_id:
        raise InvalidInput("the two runs and the benchmark belong to different systems")
    good_sha, bad_sha = str(good.commit), str(bad.commit)
    if good_sha == bad_sha:
        raise Conflict(f"runs {good.id} and {bad.id} measured the same commit: nothing to bisect")
    profile = bad.profile or good.profile
    if not profile:
        raise Conflict(f"run {bad.id} names no profile: only runner-executed runs are bisected")
    slug = session.get_one(System, bad.system_id).slug
    branch = session.get_one(Branch, bad.branch_id).name
    bisection = Bisection(
        system_id=bad.system_id,
        alert_id=alert_id,
        summary_id=summary_id,
        benchmark_id=benchmark.id,
        metric_id=metric_id,
        good_run_id=good.id,
        bad_run_id=bad.id,
        good_commit=good_sha,
        bad_commit=bad_sha,
        branch=branch,
        profile=profile,
        first_parent=first_parent,
        state=BisectState.RUNNING,
        created_by=by,
        created_at=utcnow(),
    )
    session.add(bisection)
    session.flush()
    task: dict[str, Any] = {"kind": "revlist", "good": good_sha, "bad": bad_sha}
    task["first_parent"] = first_parent
    revlist = lifecycle.trigger(
        session=session,
        system=slug,
        ref=bad_sha,
        profile=profile,
        benchmarks=[benchmark.name],
        trigger_kind=RunTrigger.BISECT,
        branch=branch,
        task=task,
    )
    bisection.revlist_run_id = revlist.id
    session.flush()
    return bisection


def start_from_alert(
    *, session: Session, alert_id: int, first_parent: bool = True, by: str
) -> Bisection:
    """Bisect the commit range an alert names (its last good run..its first bad run)."""
    alert = session.get(Alert, alert_id)
    if alert is None:
        raise NotFound(f"no alert {alert_id}")
    if alert.last_good_run_id is None:
        raise Conflict(f"alert {alert_id} names no last good run: there is no range to bisect")
    running = session.scalar(
        select(Bisection.id).where(
            Bisection.alert_id == alert_id, Bisection.state == BisectState.RUNNING
        )
    )
    if running is not None:
        raise Conflict(f"bisection {running} of alert {alert_id} is still running")
    shared = _of_summary(session, alert)
    if shared is not None:  # another alert of its summary is bisected: the same range, once
        return shared
    try:
        with session.begin_nested():
            return _begin(
                session=session,
                good=_run(session, alert.last_good_run_id, "last good"),
                bad=_run(session, alert.run_id, "first bad"),
                benchmark=session.get_one(Benchmark, alert.benchmark_id),
                metric_id=alert.metric_id,
                alert_id=alert_id,
                summary_id=alert.summary_id,
                first_parent=first_parent,
                by=by,
            )
    except IntegrityError:  # a concurrent start of its summary's bisection won
        shared = _of_summary(session, alert)
        if shared is None:
            raise Conflict(
                f"a bisection of alert {alert_id} was started at the same time"
            ) from None
        return shared


def _of_summary(session: Session, alert: Alert) -> Bisection | None:
    """The bisection of another alert of its summary that runs or found its commit: the
    summary's alerts share it."""
    if alert.summary_id is None:
        return None
    return session.scalar(
        select(Bisection)
        .where(
            Bisection.summary_id == alert.summary_id,
            Bisection.alert_id != alert.id,
            Bisection.state.in_([BisectState.RUNNING, BisectState.FOUND]),
        )
        .order_by(Bisection.id.desc())
        .limit(1)
    )


def start_from_runs(
    *,
    session: Session,
    good_run_id: int,
    bad_run_id: int,
    benchmark: str,
    params_key: str | None,
    metric: str,
    first_parent: bool = True,
    by: str,
) -> Bisection:
    """Bisect between two runs of one system for one benchmark's metric."""
    good, bad = _run(session, good_run_id, "good"), _run(session, bad_run_id, "bad")
    query = select(Benchmark).where(
        Benchmark.system_id == bad.system_id, Benchmark.name == benchmark
    )
    if params_key is not None:
        query = query.where(Benchmark.params_key == params_key)
    found = session.scalars(query.order_by(Benchmark.id)).all()
    if not found:
        raise NotFound(f"benchmark {benchmark!r} of run {bad.id}'s system: no such benchmark")
    if len(found) != 1:
        why = "several variants: give params"
        raise InvalidInput(
            f"benchmark {benchmark!r} of run {bad.id}'s system: {why}",
            errors=[{"loc": ["benchmark"], "msg": why}],
        )
    metric_id = session.scalar(
        select(Metric.id).where(Metric.system_id == bad.system_id, Metric.name == metric)
    )
    if metric_id is None:
        raise NotFound(f"no metric {metric!r} in run {bad.id}'s system")
    return _begin(
        session=session,
        good=good,
        bad=bad,
        benchmark=found[0],
        metric_id=metric_id,
        alert_id=None,
        first_parent=first_parent,
        by=by,
    )


def get_for_update(*, session: Session, bisection_id: int) -> Bisection:
    """The bisection, row-locked, or NotFound."""
    row = session.scalar(select(Bisection).where(Bisection.id == bisection_id).with_for_update())
    if row is None:
        raise NotFound(f"no bisection {bisection_id}")
    return row


def system_of(*, session: Session, bisection_id: int) -> str:
    """The slug of the bisection's system, or NotFound (checked before authorising)."""
    return system_service.slug_owning(
        session=session, model=Bisection, row_id=bisection_id, what="bisection"
    )


def cancel(*, session: Session, bisection_id: int, by: str) -> Bisection:
    """Stop a running bisection and cancel its run in flight."""
    bisection = get_for_update(session=session, bisection_id=bisection_id)
    if bisection.state != BisectState.RUNNING:
        raise Conflict(f"bisection {bisection_id} has already ended ({bisection.state})")
    advance.finish(bisection, BisectState.CANCELLED, f"cancelled by {by}")
    for step in advance.steps_of(session=session, bisection_id=bisection.id):
        if step.verdict == Verdict.PENDING:
            step.verdict, step.finished_at = Verdict.CANCELLED, utcnow()
    for run_id in advance.runs_in_flight(session=session, bisection=bisection):
        lifecycle.cancel(session=session, run_id=run_id, by=by)
    session.flush()
    return bisection


def bisection_of_task(*, session: Session, run_id: int) -> Bisection:
    """The running bisection whose commit-listing task is run `run_id`, row-locked."""
    bisection = session.scalar(
        select(Bisection).where(Bisection.revlist_run_id == run_id).with_for_update()
    )
    if bisection is None:
        raise NotFound(f"run {run_id} is no bisection's list of commits")
    return bisection


def record_commits(
    *, session: Session, run_id: int, commits: Sequence[dict[str, Any]] | None, error: str | None
) -> Bisection:
    """An agent's answer to a `revlist` task: the range's commits oldest first, or why not."""
    bisection = bisection_of_task(session=session, run_id=run_id)
    run = lifecycle.get_for_update(session=session, run_id=run_id)
    if error is not None or commits is None:
        lifecycle.report(
            session=session,
            run_id=run_id,
            status=RunStatus.FAILED,
            message=f"{advance.NOT_LISTED}: {error}",
            progress=None,
            lines=[],
            agent=None,
        )
    else:
        lifecycle.mark_completed(session=session, run=run)
        if bisection.state == BisectState.RUNNING:
            bisection.commits = [dict(c) for c in commits]
    advance.advance(session=session, bisection=bisection)
    session.flush()
    return bisection
