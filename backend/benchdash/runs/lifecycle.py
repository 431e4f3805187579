"""Run lifecycle: trigger, cancel, agent reports, heartbeat reaper (states in `runs.states`)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from benchdash.db import utcnow
from benchdash.kit.errors import Conflict, InvalidInput, NotFound
from benchdash.notify import outbox
from benchdash.runs import agents, queue
from benchdash.runs.models import Run, RunEvent
from benchdash.runs.states import ACTIVE, NEXT, TERMINAL, RunStatus, RunTrigger
from benchdash.systems import service as system_service

SHA_CHARS = set("0123456789abcdef")
DETACHED_REFS = ("HEAD", "working-tree")
MAX_LOG_LINES = 500


def add_event(*, session: Session, run_id: int, kind: str, data: dict[str, Any]) -> None:
    """Append one event to the run's stream."""
    session.add(RunEvent(run_id=run_id, kind=kind, data=data, at=utcnow()))


def _set_status(session: Session, run: Run, status: str, message: str | None = None) -> None:
    run.status = status
    if message is not None:
        run.message = message
    if status in TERMINAL:
        run.finished_at = utcnow()
    if status in (RunStatus.FAILED, RunStatus.TIMED_OUT):  # the outbox row, in this transaction
        facts = {"id": run.id, "status": status, "ref": run.ref, "commit": run.commit}
        outbox.run_failed(
            session=session,
            system_id=run.system_id,
            branch_id=run.branch_id,
            run={**facts, "message": run.message},
        )
    add_event(
        session=session, run_id=run.id, kind="state", data={"status": status, "message": message}
    )


def get_for_update(*, session: Session, run_id: int) -> Run:
    """The run, row-locked, or NotFound."""
    run = session.scalar(select(Run).where(Run.id == run_id).with_for_update())
    if run is None:
        raise NotFound(f"no run {run_id}")
    return run


def trigger(
    *,
    session: Session,
    system: str,
    ref: str,
    profile: str,
    benchmarks: list[str] | None,
    trigger_kind: str,
    branch: str | None = None,
    rerun_of: int | None = None,
    task: dict[str, Any] | None = None,
) -> Run:
    """Create a queued run and defer its job on the system's queue, in one transaction.

    A re-run (`rerun_of`) re-measures a suspected change of another run, a bisection step
    measures a commit of a range: neither is accepted into its series' history. A `task` is
    work other than benchmarking for the agent (runners/CONTRACT.md).
    """
    row = system_service.get_by_slug(session=session, slug=system)
    manifest = row.manifest or {}
    if not manifest:
        raise Conflict(
            f"no runner agent has registered system {system!r} yet: "
            f"start `benchdash-runner --system {system}`"
        )
    profiles = manifest.get("profiles", {})
    if profile not in profiles:
        raise InvalidInput(
            f"system {system!r} has no profile {profile!r}; one of {', '.join(sorted(profiles))}",
            errors=[{"loc": ["profile"], "msg": "unknown profile"}],
        )
    known = set(profiles[profile].get("scenarios", []))
    unknown = sorted(set(benchmarks or []) - known) if known else []
    if unknown:
        raise InvalidInput(
            f"unknown benchmarks for {system}/{profile}: {', '.join(unknown)}; "
            f"known: {', '.join(sorted(known))}",
            errors=[{"loc": ["benchmarks"], "msg": "unknown benchmark"}],
        )
    is_sha = 7 <= len(ref) <= 40 and set(ref) <= SHA_CHARS
    # A branch name is its own branch; a commit (or HEAD) is charted on main unless told.
    if branch is None and (is_sha or ref in DETACHED_REFS):
        branch = system_service.default_branch(session=session, system_id=row.id)
    br = system_service.ensure_branch(session=session, system_id=row.id, name=branch or ref)
    run = Run(
        system_id=row.id,
        branch_id=br.id,
        trigger=trigger_kind,
        profile=profile,
        status="queued",
        ref=ref,
        commit=ref if is_sha else None,
        requested_benchmarks=benchmarks or None,
        rerun_of=rerun_of,
        accepted=rerun_of is None and trigger_kind != RunTrigger.BISECT,
        task=task,
        created_at=utcnow(),
        started_at=utcnow(),
    )
    session.add(run)
    session.flush()
    run.job_id = queue.defer_run(session=session, system=system, run_id=run.id)
    add_event(
        session=session, run_id=run.id, kind="state", data={"status": "queued", "message": None}
    )
    session.flush()
    return run


def cancel(*, session: Session, run_id: int, by: str) -> Run:
    """Cancel a queued run at once; ask the agent of an active run to stop it."""
    run = get_for_update(session=session, run_id=run_id)
    if run.status in TERMINAL:
        raise Conflict(f"run {run_id} is already {run.status}")
    if run.status == RunStatus.QUEUED and (
        run.job_id is None or queue.cancel_job(session=session, job_id=run.job_id)
    ):
        _set_status(session, run, "cancelled", f"cancelled by {by} before it started")
    else:
        run.cancel_requested = True
        add_event(
            session=session,
            run_id=run.id,
            kind="log",
            data={"lines": [f"cancel requested by {by}"]},
        )
    session.flush()
    return run


def report(
    *,
    session: Session,
    run_id: int,
    status: str | None,
    message: str | None,
    progress: dict[str, Any] | None,
    lines: list[str],
    agent: str | None,
) -> Run:
    """An agent's heartbeat with optional state change, progress and log lines."""
    run = get_for_update(session=session, run_id=run_id)
    if run.status in TERMINAL:
        raise Conflict(f"run {run_id} is already {run.status}: stop working on it")
    run.heartbeat_at = utcnow()
    if agent:
        run.agent = agent
    if lines:
        for start in range(0, len(lines), MAX_LOG_LINES):
            add_event(
                session=session,
                run_id=run.id,
                kind="log",
                data={"lines": lines[start : start + MAX_LOG_LINES]},
            )
    if progress is not None:
        run.progress = progress
        add_event(session=session, run_id=run.id, kind="progress", data=progress)
    if status is not None and status != run.status:
        if status not in NEXT.get(RunStatus(run.status), ()):
            raise Conflict(f"run {run_id} cannot go from {run.status} to {status}")
        _set_status(session, run, status, message)
    session.flush()
    return run


def reap(*, session: Session, timeout_s: float) -> list[int]:
    """Fail active (or taken) runs whose agent has not reported for `timeout_s`; returns their
    ids."""
    cutoff = utcnow() - timedelta(seconds=timeout_s)
    taken = and_(Run.status == RunStatus.QUEUED, Run.agent.is_not(None))  # claimed, not started
    stale = session.scalars(
        select(Run)
        .where(or_(Run.status.in_(ACTIVE), taken), Run.heartbeat_at < cutoff)
        .with_for_update(skip_locked=True)
    ).all()
    for run in stale:
        _set_status(
            session,
            run,
            "failed",
            f"the runner agent stopped sending heartbeats (none for {timeout_s:.0f} s)",
        )
    session.flush()
    return [r.id for r in stale]


def reap_unserved(*, session: Session, wait_s: float, live_s: float) -> list[int]:
    """Fail runs queued longer than `wait_s` for a system with no agent online (none sent a
    heartbeat within `live_s`); returns their ids. A job an agent already took is left alone."""
    waited = utcnow() - timedelta(seconds=wait_s)
    queued = session.scalars(
        select(Run)
        .where(
            Run.status == RunStatus.QUEUED,
            Run.created_at < waited,
            Run.system_id.not_in(agents.served_systems(live_s)),
        )
        .with_for_update(skip_locked=True)
    ).all()
    failed = []
    for run in queued:
        if run.job_id is None or queue.cancel_job(session=session, job_id=run.job_id):
            message = f"no runner agent of this system was online for {wait_s:.0f} s"
            _set_status(session, run, "failed", message)
            failed.append(run.id)
    agents.forget_silent(session=session)
    session.flush()
    return failed


def mark_completed(*, session: Session, run: Run) -> None:
    """Called by ingest when a queued run's results arrive."""
    if run.status in TERMINAL:
        raise Conflict(f"run {run.id} is already {run.status}")
    if run.cancel_requested:
        raise Conflict(f"run {run.id} was cancelled; its results are not stored")
    _set_status(session, run, "completed")
