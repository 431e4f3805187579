"""Moving a bisection on: judge each step whose run ended, then ask `decide.next_action`.

Called when a step's run uploads (ingest), when the agent lists the commits (service), and
from the API's background loop for runs that ended without an upload (a failed build, a dead
agent) or tasks that failed.
"""

from __future__ import annotations

from sqlalchemy import select, text
from sqlalchemy.orm import Session

from benchdash.bisect import culprits, judge
from benchdash.bisect.decide import Next, Step, Verdict, next_action
from benchdash.bisect.models import Bisection, BisectionStep
from benchdash.bisect.states import BisectState
from benchdash.db import utcnow
from benchdash.kit.errors import AppError
from benchdash.kit.sql import sql_in
from benchdash.runs import lifecycle
from benchdash.runs.models import Run
from benchdash.runs.states import TERMINAL, RunStatus, RunTrigger
from benchdash.systems.models import Benchmark, System

# Running bisections with a task or a step whose run has ended but was not judged yet.
_PENDING = text(
    f"""
    SELECT b.id FROM bisection b WHERE b.state = '{BisectState.RUNNING}' AND (
      EXISTS (SELECT 1 FROM run r WHERE r.id = b.revlist_run_id AND b.commits IS NULL
              AND r.status IN ({sql_in(TERMINAL)}))
      OR EXISTS (SELECT 1 FROM bisection_step s JOIN run r ON r.id = s.run_id
                 WHERE s.bisection_id = b.id AND s.verdict = '{Verdict.PENDING}'
                   AND r.status IN ({sql_in(TERMINAL)})))
    ORDER BY b.id
    """
)


NOT_LISTED = "the commits could not be listed"  # an agent's own answer: not retried
_RETRIED = (RunStatus.FAILED, RunStatus.TIMED_OUT)


def finish(bisection: Bisection, state: BisectState, message: str | None) -> None:
    """End the bisection in `state`."""
    bisection.state = state
    bisection.message = message
    bisection.finished_at = utcnow()


def steps_of(*, session: Session, bisection_id: int) -> list[BisectionStep]:
    """The bisection's steps, oldest first."""
    return list(
        session.scalars(
            select(BisectionStep)
            .where(BisectionStep.bisection_id == bisection_id)
            .order_by(BisectionStep.id)
        ).all()
    )


def runs_in_flight(*, session: Session, bisection: Bisection) -> list[int]:
    """Runs of the bisection (its task, its steps) that have not ended."""
    ids = [s.run_id for s in steps_of(session=session, bisection_id=bisection.id) if s.run_id]
    if bisection.revlist_run_id is not None:
        ids.append(bisection.revlist_run_id)
    return list(
        session.scalars(
            select(Run.id).where(Run.id.in_(ids), Run.status.not_in(list(TERMINAL)))
        ).all()
    )


def _queue_step(session: Session, bisection: Bisection, index: int) -> None:
    commits = bisection.commits or []
    sha = str(commits[index]["sha"])
    slug = session.get_one(System, bisection.system_id).slug
    name = session.get_one(Benchmark, bisection.benchmark_id).name
    run = lifecycle.trigger(
        session=session,
        system=slug,
        ref=sha,
        profile=bisection.profile,
        benchmarks=[name],
        trigger_kind=RunTrigger.BISECT,
        branch=bisection.branch,
    )
    session.add(
        BisectionStep(
            bisection_id=bisection.id,
            run_id=run.id,
            position=index,
            commit=sha,
            verdict=Verdict.PENDING,
            created_at=utcnow(),
        )
    )


def _retry_task(session: Session, bisection: Bisection, task: Run) -> bool:
    """Queue the commit-listing task once more when its first run failed without the agent's
    answer (the agent died, the run timed out), as a step is retried; True when queued."""
    spec = dict(task.task or {})
    answered = (task.message or "").startswith(NOT_LISTED)
    if task.status not in _RETRIED or answered or spec.get("attempt", 1) > 1 or task.ref is None:
        return False
    again = lifecycle.trigger(
        session=session,
        system=session.get_one(System, bisection.system_id).slug,
        ref=task.ref,
        profile=bisection.profile,
        benchmarks=list(task.requested_benchmarks or []),
        trigger_kind=RunTrigger.BISECT,
        branch=bisection.branch,
        task=spec | {"attempt": 2},
    )
    bisection.revlist_run_id = again.id
    session.flush()
    return True


def _conclude(
    session: Session, bisection: Bisection, action: Next, done: list[BisectionStep]
) -> None:
    commits = bisection.commits or []
    skipped = sorted({s.commit[:12] for s in done if s.verdict == Verdict.SKIPPED})
    said = f"; skipped (build failed): {', '.join(skipped)}" if skipped else ""
    if action.kind == "found" and action.index is not None:
        culprit = commits[action.index]
        bisection.culprit_sha = str(culprit["sha"])
        bisection.culprit_subject = str(culprit.get("subject") or "")[:2000]
        bisection.culprit_author = str(culprit.get("author") or "")[:300]
        finish(bisection, BisectState.FOUND, f"first bad commit {culprit['sha'][:12]}{said}")
        culprits.announce(session=session, bisection=bisection)
        return
    last = done[-1] if done else None
    if action.kind == "failed" and last is not None:
        why = (last.evidence or {}).get("message") or "its run failed"
        message = f"step {len(done)} at {last.commit[:12]} failed twice: {why}"
        finish(bisection, BisectState.FAILED, message)
        return
    low = commits[action.low]["sha"][:12] if action.low >= 0 else bisection.good_commit[:12]
    high = commits[action.high]["sha"][:12] if commits else bisection.bad_commit[:12]
    evidence = action.reason or ""
    if last is not None and last.evidence and not action.reason:
        e = last.evidence
        evidence = (
            f"at {last.commit[:12]} {e['why']} (median {e['median']:.4g}, good end "
            f"{e['good_median']:.4g}, bad end {e['bad_median']:.4g}; p {_p(e['p_good'])} against "
            f"good, {_p(e['p_bad'])} against bad), twice"
        )
    message = f"cannot bisect: {evidence}; the first bad commit is in {low}..{high}{said}"
    finish(bisection, BisectState.CANNOT, message)


def _p(p: float | None) -> str:
    return "n/a" if p is None else f"{p:.3g}"


def advance(*, session: Session, bisection: Bisection) -> None:
    """Judge the ended steps of a running bisection (row-locked by the caller), then queue its
    next step or end it."""
    if bisection.state != BisectState.RUNNING:
        return
    if bisection.commits is None:
        task = session.get(Run, bisection.revlist_run_id) if bisection.revlist_run_id else None
        if task is not None and _retry_task(session, bisection, task):
            return
        if task is None or task.status in TERMINAL:
            why = (task.message or "its run failed") if task is not None else "its run is gone"
            twice = (
                " (tried twice)" if task is not None and (task.task or {}).get("attempt") else ""
            )
            said = why if why.startswith(NOT_LISTED) else f"{NOT_LISTED}{twice}: {why}"
            finish(bisection, BisectState.FAILED, said)
            session.flush()
        return
    commits = bisection.commits
    if not commits or commits[-1].get("sha") != bisection.bad_commit:
        finish(bisection, BisectState.FAILED, "the listed commits do not end at the bad commit")
        return
    steps = steps_of(session=session, bisection_id=bisection.id)
    for step in steps:
        if step.verdict == Verdict.PENDING and step.run_id is not None:
            run = session.get(Run, step.run_id)
            if run is not None and run.status in TERMINAL:
                judge.judge(session, bisection, step, run)
    if any(s.verdict == Verdict.PENDING for s in steps):
        session.flush()
        return
    done = [s for s in steps if s.verdict != Verdict.CANCELLED]
    action = next_action(
        len(commits), [Step(index=s.position, verdict=Verdict(s.verdict)) for s in done]
    )
    if action.kind == "test" and action.index is not None:
        try:
            _queue_step(session, bisection, action.index)
        except AppError as exc:  # e.g. the system's agents unregistered
            finish(bisection, BisectState.FAILED, f"step not queued: {exc.detail}")
    else:
        _conclude(session, bisection, action, done)
    session.flush()


def on_run_ended(*, session: Session, run_id: int) -> None:
    """A bisection's run ended (its upload arrived): move its bisection on."""
    bisection_id = session.scalar(
        select(BisectionStep.bisection_id).where(BisectionStep.run_id == run_id)
    )
    if bisection_id is None:
        return
    bisection = session.scalar(
        select(Bisection).where(Bisection.id == bisection_id).with_for_update()
    )
    if bisection is not None:
        advance(session=session, bisection=bisection)


def advance_pending(*, session: Session) -> int:
    """Move on every running bisection whose task or step run ended without an upload."""
    moved = 0
    for bisection_id in session.scalars(_PENDING).all():
        bisection = session.scalar(
            select(Bisection).where(Bisection.id == bisection_id).with_for_update(skip_locked=True)
        )
        if bisection is not None:
            advance(session=session, bisection=bisection)
            moved += 1
    return moved
