"""A pull request's run decided at once on its own samples against its base (issue 38)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, token

SPREAD = (0.996, 0.998, 1.0, 1.002, 1.004)


def _doc(level: float, at: int, branch: str, base: str | None = None) -> dict[str, Any]:
    samples = [level * d for d in SPREAD]
    doc = document(metric("p50", "ms", "lower_is_better", samples=samples), branch=branch, at=at)
    if base is not None:
        doc["run"]["base_branch"] = base
    return doc


def test_a_pr_run_gets_a_verdict_against_the_base_runs_and_keeps_it(
    client: TestClient, session: Session
) -> None:
    h = auth(token(session, "uvhttp"))
    mains = [post(client, h, _doc(10.0, at, "main"))["run"]["id"] for at in range(12)]
    last = post(client, h, _doc(10.0, 12, "main"))
    assert last.get("pr") is None  # main has no base
    mains.append(last["run"]["id"])
    first = post(client, h, _doc(11.5, 100, "feature/slow", base="main"))
    pr = first["pr"]
    assert pr["verdict"] == "fail" and pr["base_branch"] == "main"
    assert [r["run_id"] for r in pr["base_runs"]] == mains[-10:]
    (series,) = pr["series"]
    assert series["outcome"] == "fail" and 13 < series["change_pct"] < 17
    assert series["samples"] == 5 and series["low_pct"] > 5
    retried = client.post("/api/v1/results", json=_doc(11.5, 100, "feature/slow"), headers=h)
    assert retried.status_code == 200, retried.text  # the stored run, judged the same
    assert retried.json()["created"] is False and retried.json()["pr"] == pr
    page = client.get(f"/api/v1/runs/{first['run']['id']}").json()
    assert page["pr"] == pr  # the run's page says what its upload answered
    clean = post(client, h, _doc(10.0, 101, "feature/slow", base="main"))["pr"]
    assert clean["verdict"] == "success" and clean["series"][0]["outcome"] == "ok"


def test_a_base_without_runs_compares_nothing(client: TestClient, session: Session) -> None:
    h = auth(token(session, "uvhttp"))
    pr = post(client, h, _doc(10.0, 0, "feature/new", base="develop"))["pr"]
    assert pr["verdict"] == "success" and pr["base_runs"] == []
    assert pr["series"][0]["outcome"] == "no_base"
