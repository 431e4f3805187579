"""The dry run reports exactly what the job then does: feature runs past 90 days go, `main`
stays with its old samples summarised (its series' points unchanged), and the runs an open
alert or a bisection names are kept."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from benchdash.audit.models import AuditEvent
from benchdash.db import utcnow
from benchdash.retention import job
from tests.fixtures.factories import auth, token
from tests.retention.seed import RULES, seed

PREVIEW = "/api/v1/retention/preview"


def _admin(client: TestClient, session: Session) -> dict[str, str]:
    headers = auth(token(session, scope="admin"))
    r = client.put("/api/v1/retention/rules", json={"rules": RULES}, headers=headers)
    assert r.status_code == 200, r.text
    return headers


def _runs(session: Session) -> set[int]:
    return set(session.execute(text("SELECT id FROM run")).scalars())


def _points(client: TestClient, metric: str) -> list[dict[str, Any]]:
    key = {"system": "uvhttp", "benchmark": "medium_concurrency", "metric": metric,
           "branch": "main", "testbed": "tb-1"}  # fmt: skip
    r = client.get("/api/v1/series", params=key)
    assert r.status_code == 200, r.text
    return list(r.json()["points"])


def test_the_dry_run_is_what_the_job_then_does(client: TestClient, session: Session) -> None:
    now = utcnow()
    seeded = seed(client, session, now)
    headers = _admin(client, session)
    before = _runs(session)
    r = client.get(PREVIEW, headers=headers)
    assert r.status_code == 200, r.text
    report = r.json()
    assert _runs(session) == before, "a dry run deletes nothing"
    by_branch = {b["branch"]: b for b in report["branches"]}
    old = seeded.runs["feature/old"]
    kept = {seeded.open_alert, seeded.last_good, seeded.baseline, *seeded.bisection}
    assert set(by_branch["feature/old"]["kept_runs"]) == kept
    assert by_branch["feature/old"]["delete_runs"] == len(old) - len(kept) == 4
    assert by_branch["feature/old"]["delete_measurements"] == 8
    assert by_branch["feature/new"]["delete_runs"] == 0
    assert (by_branch["main"]["delete_runs"], by_branch["main"]["summarise_runs"]) == (0, 5)
    assert by_branch["main"]["summarise_measurements"] == 10
    assert (report["delete_runs"], report["summarise_runs"], report["kept_runs"]) == (4, 5, 6)

    out = job.apply(session=session, now=utcnow())
    assert (out.deleted_runs, out.deleted_measurements) == (4, 8)
    assert (out.summarised_runs, out.summarised_measurements) == (5, 10)
    gone = before - _runs(session)
    assert gone == set(old) - kept and seeded.resolved_alert in gone
    assert set(seeded.runs["main"]) | set(seeded.runs["feature/new"]) | kept <= _runs(session)
    open_alerts = "SELECT run_id FROM alert WHERE status = 'open'"
    assert list(session.execute(text(open_alerts)).scalars()) == [seeded.open_alert]
    assert session.scalar(text("SELECT count(*) FROM bisection_step WHERE run_id IS NOT NULL"))
    event = session.scalars(select(AuditEvent).where(AuditEvent.action == job.ACTION)).one()
    assert event.detail["deleted_runs"] == 4 and event.detail["summarised_measurements"] == 10

    again = client.get(PREVIEW, headers=headers).json()
    assert (again["delete_runs"], again["summarise_runs"], again["kept_runs"]) == (0, 0, 6)
    assert job.apply(session=session, now=utcnow()).deleted_runs == 0


def test_summarised_samples_keep_the_series_points(client: TestClient, session: Session) -> None:
    now = utcnow()
    seeded = seed(client, session, now)
    _admin(client, session)
    read = {m: _points(client, m) for m in ("requests_per_second", "latency_ms")}
    assert [len(p) for p in read.values()] == [8, 8]
    stats = text(
        "SELECT run_id, value, n, mean, median, stddev, min_value, max_value, cardinality(samples) "
        "FROM measurement WHERE run_id = ANY(:ids) ORDER BY id"
    )
    main = seeded.runs["main"]
    was = session.execute(stats, {"ids": main}).all()
    assert all(row[-1] == 5 for row in was)
    out = job.apply(session=session, now=now)
    assert out.summarised_runs == 5 and out.deleted_runs == 4
    now_rows = session.execute(stats, {"ids": main}).all()
    emptied = {row[0] for row in now_rows if row[-1] == 0}
    assert emptied == set(main[:5]), "the five runs older than 100 days lost their samples"
    assert [r[:-1] for r in now_rows] == [r[:-1] for r in was], "summary statistics kept"
    assert {m: _points(client, m) for m in read} == read


def test_no_rule_deletes_nothing(client: TestClient, session: Session) -> None:
    seed(client, session, utcnow())
    headers = auth(token(session, scope="admin"))
    rows = session.scalar(select(func.count()).select_from(text("measurement")))
    report = client.get(PREVIEW, headers=headers).json()
    assert (report["delete_runs"], report["summarise_runs"], report["kept_runs"]) == (0, 0, 0)
    assert {b["rule"] for b in report["branches"]} == {None}
    out = job.apply(session=session, now=utcnow())
    assert (out.deleted_runs, out.summarised_runs, out.batches) == (0, 0, 0)
    assert session.scalar(select(func.count()).select_from(text("measurement"))) == rows
