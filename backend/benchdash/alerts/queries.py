"""Alert listings (each alert with its series, run and the verdict that opened it) and a
branch's status badge for READMEs: its regressions (alerts not resolved), else its suspected
series (newest point over the floors, awaiting confirmation), else ok, not judged yet (every
newest point still learning) or no data. Fail-level alerts are red, warn-level ones amber. A badge's
ETag is a hash of its SVG, so it changes exactly when the badge does."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session, aliased

from benchdash.alerts.models import Alert
from benchdash.alerts.schemas import AlertRead
from benchdash.alerts.states import ACTIVE_ALERTS, AlertStatus
from benchdash.bisect import culprits as bisect_culprits
from benchdash.kit.badge import BadgeColor, badge_svg
from benchdash.kit.errors import NotFound
from benchdash.regression.engine import Level
from benchdash.regression.explain import explain_alert
from benchdash.regression.model import Action, AlertDecision, AlertKind, Contributor, Stage
from benchdash.results import read as result_read
from benchdash.results.models import Verdict
from benchdash.results.read import series_url
from benchdash.runs.models import Run
from benchdash.systems import service as system_service
from benchdash.systems.models import Benchmark, Branch, Metric, System, Testbed
from benchdash.systems.repository import commits_url


def _explain(
    alert: Alert, metric: Metric, verdict_text: str, commit: str | None, good_commit: str | None
) -> str:
    """The step in words when the alert was confirmed by the detector, else the verdict's."""
    if not alert.confirmed_by:
        return verdict_text
    decision = AlertDecision(
        action=Action.OPEN,
        level=Level(alert.level),
        first_bad_run_id=alert.run_id,
        first_bad_commit=commit,
        last_good_run_id=alert.last_good_run_id,
        last_good_commit=good_commit,
        baseline_value=alert.baseline_value,
        change_pct=alert.change_pct,
        p_value=alert.p_value,
        warn_floor=alert.warn_floor,
        confirmed_by=alert.confirmed_by,
        kind=AlertKind(alert.kind),
        window_runs=(alert.drift or {}).get("window_runs"),
        contributors=tuple(Contributor(**c) for c in (alert.drift or {}).get("contributors", [])),
    )
    text = explain_alert(decision, unit=metric.unit, direction=metric.direction)
    if alert.regraded_at is not None and alert.graded_runs:
        text += f" Graded {alert.level} again once {alert.graded_runs} runs followed the step."
    return text


def list_alerts(
    *,
    session: Session,
    status: list[AlertStatus] | None = None,
    system: str | None = None,
    branch: str | None = None,
    run_id: int | None = None,
    limit: int = 200,
) -> list[AlertRead]:
    """Alerts, newest first, filtered by status, system, branch and the run that is their step."""
    good = aliased(Run)
    q = (
        select(
            Alert,
            System.slug,
            Benchmark,
            Metric,
            Branch.name,
            Testbed.name,
            Run.commit,
            Verdict,
            good.commit,
            System.repository,
        )
        .join(System, System.id == Alert.system_id)
        .join(Benchmark, Benchmark.id == Alert.benchmark_id)
        .join(Metric, Metric.id == Alert.metric_id)
        .join(Branch, Branch.id == Alert.branch_id)
        .join(Testbed, Testbed.id == Alert.testbed_id)
        .join(Run, Run.id == Alert.run_id)
        .join(Verdict, Verdict.id == Alert.verdict_id)
        .outerjoin(good, good.id == Alert.last_good_run_id)
        .order_by(Alert.opened_at.desc(), Alert.id.desc())
        .limit(limit)
    )
    if status:
        q = q.where(Alert.status.in_(status))
    if system:
        q = q.where(System.slug == system)
    if branch:
        q = q.where(Branch.name == branch)
    if run_id is not None:
        q = q.where(Alert.run_id == run_id)
    rows = session.execute(q).all()
    found = bisect_culprits.of_alerts(session=session, alert_ids=[r[0].id for r in rows])
    return [
        AlertRead(
            id=a.id,
            status=a.status,
            system=slug,
            benchmark=b.name,
            parameters=b.parameters,
            params_key=b.params_key,
            metric=m.name,
            unit=m.unit,
            direction=m.direction,
            branch=branch,
            testbed=testbed,
            run_id=a.run_id,
            commit=commit,
            last_good_run_id=a.last_good_run_id,
            last_good_commit=good_commit,
            level=a.level,
            confirmed_by=a.confirmed_by,
            kind=a.kind,
            window_runs=(a.drift or {}).get("window_runs"),
            contributors=(a.drift or {}).get("contributors", []),
            change_pct=a.change_pct if a.change_pct is not None else v.change_pct,
            graded_runs=a.graded_runs,
            regraded_at=a.regraded_at,
            p_value=a.p_value if a.confirmed_by else v.p_value,
            baseline=a.baseline_value if a.baseline_value is not None else v.baseline_value,
            warn_floor=a.warn_floor,
            explanation=_explain(a, m, v.explanation, commit, good_commit),
            series_url=series_url(slug, b.name, b.params_key, m.name, branch),
            commits_url=commits_url(repo, good_commit, commit),
            opened_at=a.opened_at,
            acknowledged_at=a.acknowledged_at,
            acknowledged_by=a.acknowledged_by,
            resolved_at=a.resolved_at,
            first_bad_commit=found.get(a.id),
            root_cause=a.root_cause,
        )
        for a, slug, b, m, branch, testbed, commit, v, good_commit, repo in rows
    ]


LABEL = "perf"
MAX_COUNTED = 1000  # "1000 regressions" says enough


@dataclass(frozen=True)
class Badge:
    """What a badge says, in what colour, whether its system exists, and its SVG and ETag."""

    message: str
    color: BadgeColor
    known: bool
    svg: bytes
    etag: str


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _badge(system: str, branch: str, message: str, color: BadgeColor, known: bool) -> Badge:
    title = f"{system} on {branch}: {LABEL} {message}"
    svg = badge_svg(LABEL, message, color, title=title).encode()
    etag = '"' + hashlib.blake2b(svg, digest_size=12).hexdigest() + '"'
    return Badge(message, color, known, svg, etag)


def badge_status(*, session: Session, system: str, branch: str) -> Badge:
    """The badge of `system` on `branch`; an unknown system gets a grey 'no data' one
    (`known` False) rather than an error, so an embedding page shows a badge either way."""
    try:
        found = system_service.get_by_slug(session=session, slug=system)
    except NotFound:
        return _badge(system, branch, "no data", BadgeColor.GREY, known=False)
    alerts = list_alerts(
        session=session,
        status=list(ACTIVE_ALERTS),
        system=system,
        branch=branch,
        limit=MAX_COUNTED,
    )
    failing = sum(a.level == Level.FAIL.value for a in alerts)
    if failing:  # the same words and colours as the UI's status model (frontend/src/lib/status.ts)
        return _badge(system, branch, _plural(failing, "regression"), BadgeColor.RED, True)
    if alerts:  # only warn-level alerts: worse, but not past the fail threshold
        return _badge(system, branch, f"{len(alerts)} worse (warn)", BadgeColor.AMBER, True)
    stages = result_read.branch_stages(session=session, system_id=found.id, branch=branch)
    if stages[Stage.SUSPECTED.value]:
        message = f"{stages[Stage.SUSPECTED.value]} suspected"
        return _badge(system, branch, message, BadgeColor.AMBER, True)
    if stages["judged"]:
        return _badge(system, branch, "ok", BadgeColor.GREEN, True)
    if stages:  # points, but every newest one still learning: not judged, never ok
        return _badge(system, branch, "not judged yet", BadgeColor.GREY, True)
    return _badge(system, branch, "no data", BadgeColor.GREY, True)
