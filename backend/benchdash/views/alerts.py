"""Alert listings: each alert with its series, run and the verdict that opened it."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from benchdash.alerts.models import Alert
from benchdash.alerts.schemas import AlertRead
from benchdash.alerts.states import AlertStatus
from benchdash.results.models import Verdict
from benchdash.results.read import series_url
from benchdash.runs.models import Run
from benchdash.systems.models import Benchmark, Branch, Metric, System, Testbed


def list_alerts(
    *,
    session: Session,
    status: list[AlertStatus] | None = None,
    system: str | None = None,
    limit: int = 200,
) -> list[AlertRead]:
    """Alerts, newest first, filtered by status and system."""
    q = (
        select(
            Alert, System.slug, Benchmark, Metric, Branch.name, Testbed.name, Run.commit, Verdict
        )
        .join(System, System.id == Alert.system_id)
        .join(Benchmark, Benchmark.id == Alert.benchmark_id)
        .join(Metric, Metric.id == Alert.metric_id)
        .join(Branch, Branch.id == Alert.branch_id)
        .join(Testbed, Testbed.id == Alert.testbed_id)
        .join(Run, Run.id == Alert.run_id)
        .join(Verdict, Verdict.id == Alert.verdict_id)
        .order_by(Alert.opened_at.desc(), Alert.id.desc())
        .limit(limit)
    )
    if status:
        q = q.where(Alert.status.in_(status))
    if system:
        q = q.where(System.slug == system)
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
            branch=branch,
            testbed=testbed,
            run_id=a.run_id,
            commit=commit,
            change_pct=v.change_pct,
            p_value=v.p_value,
            explanation=v.explanation,
            series_url=series_url(slug, b.name, b.params_key, m.name, branch),
            opened_at=a.opened_at,
            acknowledged_at=a.acknowledged_at,
            acknowledged_by=a.acknowledged_by,
            resolved_at=a.resolved_at,
        )
        for a, slug, b, m, branch, testbed, commit, v in session.execute(q).all()
    ]
