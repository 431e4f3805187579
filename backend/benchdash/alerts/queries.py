"""Alert listings (each alert with its series, run and the verdict that opened it), alert
summaries (their counts and worst alerts), and a branch's status badge for READMEs: its
regressions (alerts not resolved), else its suspected series (newest point over the floors,
awaiting confirmation), else ok, not judged yet (every newest point still learning) or no data.
Fail-level alerts are red, warn-level ones amber. A badge's ETag is a hash of its SVG, so it
changes exactly when the badge does."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, aliased

from benchdash.alerts.models import Alert
from benchdash.alerts.schemas import AlertRead
from benchdash.alerts.states import ACTIVE_ALERTS, AlertStatus
from benchdash.alerts.summaries import WORST_FIRST
from benchdash.alerts.summary_schemas import AlertSummaryDetail, AlertSummaryRead
from benchdash.bisect import culprits as bisect_culprits
from benchdash.kit.arrays import typed_text
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
    summary_id: int | None = None,
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
    if summary_id is not None:
        q = q.where(Alert.summary_id == summary_id)
    rows = session.execute(q).all()
    found = bisect_culprits.of_alerts(session=session, alert_ids=[r[0].id for r in rows])
    return [
        AlertRead(
            id=a.id,
            status=a.status,
            summary_id=a.summary_id,
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


CARD_WORST = 3
_LIST = typed_text(
    f"""SELECT s.*, sy.slug AS system, sy.repository, br.name AS branch,
        count(a.id) AS alerts,
        count(a.id) FILTER (WHERE a.status <> '{AlertStatus.RESOLVED}') AS active,
        count(a.id) FILTER (WHERE a.level = 'fail') AS fail,
        count(a.id) FILTER (WHERE a.level = 'warn') AS warn,
        count(DISTINCT a.benchmark_id) AS benchmarks,
        count(DISTINCT a.testbed_id) AS testbeds
    FROM alert_summary s JOIN system sy ON sy.id = s.system_id JOIN branch br ON br.id = s.branch_id
    LEFT JOIN alert a ON a.summary_id = s.id
    WHERE (CAST(:system AS text) IS NULL OR sy.slug = :system)
      AND (CAST(:ids AS int[]) IS NULL OR s.id = ANY(CAST(:ids AS int[])))
      AND s.status = ANY(CAST(:status AS text[]))
    GROUP BY s.id, sy.slug, sy.repository, br.name
    ORDER BY s.opened_at DESC, s.id DESC LIMIT :limit"""
)
_WORST = typed_text(
    f"""SELECT * FROM (
        SELECT a.summary_id, a.id, b.name AS benchmark, m.name AS metric, t.name AS testbed,
            a.level, a.change_pct, a.status,
            row_number() OVER (PARTITION BY a.summary_id ORDER BY {WORST_FIRST}) AS n
        FROM alert a JOIN benchmark b ON b.id = a.benchmark_id JOIN metric m ON m.id = a.metric_id
        JOIN testbed t ON t.id = a.testbed_id
        WHERE a.summary_id = ANY(CAST(:ids AS int[]))) w
    WHERE n <= :n ORDER BY summary_id, n"""
)
COUNTS = ("alerts", "active", "fail", "warn", "benchmarks", "testbeds")
FIELDS = (
    "id", "system", "branch", "kind", "status", "resolution", "first_bad_run_id",
    "last_good_run_id", "first_bad_commit", "last_good_commit", "opened_at", "updated_at",
    "resolved_at", "acknowledged_at", "acknowledged_by", "assignee", "issue_url", "triaged_by",
    "triaged_at",
)  # fmt: skip


def list_summaries(
    *,
    session: Session,
    status: Sequence[AlertStatus],
    system: str | None = None,
    ids: Sequence[int] | None = None,
    limit: int = 200,
) -> list[AlertSummaryRead]:
    """Summaries, newest first, of one system (or every one) in the given states."""
    params = {
        "system": system,
        "ids": list(ids) if ids is not None else None,
        "status": [str(s) for s in status],
        "limit": limit,
    }
    rows = session.execute(_LIST, params).mappings().all()
    worst: dict[int, list[dict[str, Any]]] = {}
    if rows:
        found = session.execute(_WORST, {"ids": [r["id"] for r in rows], "n": CARD_WORST})
        for w in found.mappings():
            worst.setdefault(w["summary_id"], []).append(dict(w))
    return [
        AlertSummaryRead(
            **{k: r[k] for k in FIELDS},
            commits_url=commits_url(r["repository"], r["last_good_commit"], r["first_bad_commit"]),
            counts={k: r[k] for k in COUNTS},
            worst=worst.get(r["id"], []),
        )
        for r in rows
    ]


def _worst_first(alert: Any) -> tuple[int, float, int]:
    return (0 if alert.level == "fail" else 1, -(alert.change_pct or 0.0), alert.id)


def get_summary(*, session: Session, summary_id: int) -> AlertSummaryDetail:
    """One summary with every alert of it (any state), worst first; NotFound."""
    found = list_summaries(session=session, status=list(AlertStatus), ids=[summary_id], limit=1)
    if not found:
        raise NotFound(f"no alert summary {summary_id}")
    alerts = list_alerts(session=session, summary_id=summary_id, limit=10_000)
    return AlertSummaryDetail(**found[0].model_dump(), alerts=sorted(alerts, key=_worst_first))
