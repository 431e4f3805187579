"""A history for retention tests, uploaded through the API: `main` and two feature branches at
known ages, an open alert, a resolved one and a bisection on old feature runs."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.alerts.models import Alert
from benchdash.bisect.models import Bisection, BisectionStep
from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, noisy, token

MAIN_DAYS = (400, 300, 200, 150, 120, 60, 30, 5)
OLD_FEATURE_DAYS = (200, 180, 170, 160, 150, 140, 130, 120, 110, 100)
NEW_FEATURE_DAYS = (40, 20, 3)
RULES = [
    {"system": None, "branch": "main", "summarise_after_days": 100},
    {"system": "uvhttp", "branch": "feature/*", "delete_after_days": 90},
]


@dataclass
class Seeded:
    """Run ids by branch, oldest first, and the runs something names."""

    runs: dict[str, list[int]]
    open_alert: int  # its first bad run
    last_good: int
    baseline: int  # in its verdict's baseline
    resolved_alert: int  # its first bad run, not protected
    bisection: list[int]  # good, bad and a step


def _doc(branch: str, days: int, now: datetime, seed: int) -> dict[str, Any]:
    doc = document(
        metric(samples=noisy(1000.0, 0.02, seed=seed)),
        metric("latency_ms", "ms", "lower_is_better", samples=noisy(5.0, 0.02, seed=seed + 1)),
        branch=branch,
        external_id=f"ret-{branch}-{days}",
    )
    doc["run"]["started_at"] = (now - timedelta(days=days)).isoformat()
    doc["run"]["commit"] = f"{abs(hash((branch, days))) % 16**12:012x}"
    return doc


def _verdict(session: Session, run_id: int) -> tuple[int, dict[str, int]]:
    row = session.execute(
        text(
            "SELECT v.id, m.benchmark_id, m.metric_id, s.branch_id, s.testbed_id, s.system_id "
            "FROM measurement m JOIN verdict v ON v.measurement_id = m.id "
            "JOIN series s ON s.id = m.series_id WHERE m.run_id = :r ORDER BY m.id LIMIT 1"
        ),
        {"r": run_id},
    ).one()
    keys = ("benchmark_id", "metric_id", "branch_id", "testbed_id", "system_id")
    return row[0], dict(zip(keys, row[1:], strict=True))


def seed(client: TestClient, session: Session, now: datetime) -> Seeded:
    """Upload the history (oldest first) and name some of its runs."""
    headers = auth(token(session, "uvhttp"))
    plan = [("main", d) for d in MAIN_DAYS] + [("feature/old", d) for d in OLD_FEATURE_DAYS]
    plan += [("feature/new", d) for d in NEW_FEATURE_DAYS]
    runs: dict[str, list[int]] = {}
    for i, (branch, days) in enumerate(sorted(plan, key=lambda p: -p[1])):
        body = post(client, headers, _doc(branch, days, now, seed=i))
        runs.setdefault(branch, []).append(int(body["run"]["id"]))
    old = runs["feature/old"]
    verdict_id, keys = _verdict(session, old[5])
    session.execute(
        text("UPDATE verdict SET baseline_run_ids = :b WHERE id = :v"),
        {"b": [old[3], old[4]], "v": verdict_id},
    )
    session.add(Alert(verdict_id=verdict_id, run_id=old[5], last_good_run_id=old[4], status="open",
                      **keys))  # fmt: skip
    resolved_verdict, _ = _verdict(session, old[1])
    session.add(Alert(verdict_id=resolved_verdict, run_id=old[1], status="resolved", **keys))
    session.flush()
    bisection = Bisection(
        system_id=keys["system_id"], benchmark_id=keys["benchmark_id"],
        metric_id=keys["metric_id"], good_run_id=old[6], bad_run_id=old[8], good_commit="a" * 12,
        bad_commit="b" * 12, branch="feature/old", profile="quick", state="found",
        created_by="test",
    )  # fmt: skip
    session.add(bisection)
    session.flush()
    session.add(BisectionStep(bisection_id=bisection.id, run_id=old[7], position=1, commit="c"))
    session.flush()
    return Seeded(runs, old[5], old[4], old[3], old[1], [old[6], old[8], old[7]])
