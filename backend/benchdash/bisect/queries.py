"""Reading bisections: one with its steps, those of an alert (culprits per alert: `culprits`)."""

from __future__ import annotations

import math

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from benchdash.alerts.models import Alert
from benchdash.bisect.decide import Step, Verdict, next_action
from benchdash.bisect.models import Bisection, BisectionStep
from benchdash.bisect.schemas import BisectionRead, CommitRead, StepRead
from benchdash.bisect.states import BisectState
from benchdash.kit.errors import NotFound
from benchdash.runs.models import Run
from benchdash.systems.models import Benchmark, Metric, System


def _commit(c: dict[str, object]) -> CommitRead:
    return CommitRead(
        sha=str(c.get("sha")),
        subject=str(c.get("subject") or ""),
        author=str(c.get("author") or ""),
    )


def _read(session: Session, b: Bisection) -> BisectionRead:
    steps = session.execute(
        select(BisectionStep, Run.status)
        .outerjoin(Run, Run.id == BisectionStep.run_id)
        .where(BisectionStep.bisection_id == b.id)
        .order_by(BisectionStep.id)
    ).all()
    commits = b.commits
    subjects = {str(c.get("sha")): str(c.get("subject") or "") for c in commits or []}
    range_good, range_bad, remaining, expected = b.good_commit, b.bad_commit, None, None
    if commits:
        judged = [
            Step(index=s.position, verdict=Verdict(s.verdict))
            for s, _ in steps
            if s.verdict not in (Verdict.PENDING, Verdict.CANCELLED)
        ]
        action = next_action(len(commits), judged)
        low, high = action.low, action.high
        range_good = str(commits[low]["sha"]) if low >= 0 else b.good_commit
        range_bad = str(commits[high]["sha"])
        remaining = max(high - low - 1, 0)
        expected = math.ceil(math.log2(len(commits))) if len(commits) > 1 else 0
    culprit = (
        CommitRead(
            sha=b.culprit_sha, subject=b.culprit_subject or "", author=b.culprit_author or ""
        )
        if b.culprit_sha
        else None
    )
    return BisectionRead(
        id=b.id,
        alert_id=b.alert_id,
        system=session.get_one(System, b.system_id).slug,
        benchmark=session.get_one(Benchmark, b.benchmark_id).name,
        metric=session.get_one(Metric, b.metric_id).name,
        profile=b.profile,
        branch=b.branch,
        first_parent=b.first_parent,
        state=BisectState(b.state),
        message=b.message,
        good_run_id=b.good_run_id,
        bad_run_id=b.bad_run_id,
        good_commit=b.good_commit,
        bad_commit=b.bad_commit,
        revlist_run_id=b.revlist_run_id,
        commits=[_commit(c) for c in commits] if commits is not None else None,
        range_good=range_good,
        range_bad=range_bad,
        remaining=remaining,
        expected_steps=expected,
        steps=[
            StepRead(
                id=s.id,
                position=s.position,
                commit=s.commit,
                subject=subjects.get(s.commit),
                run_id=s.run_id,
                run_status=status,
                verdict=Verdict(s.verdict),
                evidence=s.evidence,
                created_at=s.created_at,
                finished_at=s.finished_at,
            )
            for s, status in steps
        ],
        culprit=culprit,
        skipped=sorted({s.commit for s, _ in steps if s.verdict == Verdict.SKIPPED}),
        created_by=b.created_by,
        created_at=b.created_at,
        finished_at=b.finished_at,
    )


def one(*, session: Session, bisection_id: int) -> BisectionRead:
    """One bisection with its steps, or NotFound."""
    b = session.get(Bisection, bisection_id)
    if b is None:
        raise NotFound(f"no bisection {bisection_id}")
    return _read(session, b)


def of_alert(*, session: Session, alert_id: int) -> list[BisectionRead]:
    """The bisections of an alert (its own and its summary's), newest first."""
    summary = select(Alert.summary_id).where(Alert.id == alert_id).scalar_subquery()
    rows = session.scalars(
        select(Bisection)
        .where(or_(Bisection.alert_id == alert_id, Bisection.summary_id == summary))
        .order_by(Bisection.id.desc())
    ).all()
    return [_read(session, b) for b in rows]
