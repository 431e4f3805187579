"""A young branch is judged against its base branch until it has history of its own."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, token

JITTER = (1.0, 1.002, 0.998, 1.001, 0.999)


def _doc(value: float, at: int, branch: str, base: str | None = None) -> dict[str, Any]:
    doc = document(metric("qps", "req/s", value=value), system="uvhttp", branch=branch, at=at)
    if base is not None:
        doc["run"]["base_branch"] = base
    return doc


def _history(client: TestClient, headers: dict[str, str], branch: str, runs: int = 15) -> None:
    for at in range(runs):
        post(client, headers, _doc(1000 * JITTER[at % 5], at, branch))


def test_a_feature_branch_10_percent_slower_fails_against_main(
    client: TestClient, session: Session
) -> None:
    h = auth(token(session, "uvhttp"))
    _history(client, h, "main")
    verdicts = [
        post(client, h, _doc(896.0 * JITTER[i % 5], 100 + i, "feature/keepalive"))["verdicts"][0]
        for i in range(7)
    ]
    assert {v["level"] for v in verdicts} == {"fail"}, [v["explanation"] for v in verdicts]
    assert all("main's runs" in v["explanation"] for v in verdicts)
    assert all(v["gate"] != "history-too-short" for v in verdicts)


def test_the_base_named_by_an_upload_is_used(client: TestClient, session: Session) -> None:
    h = auth(token(session, "uvhttp"))
    _history(client, h, "main")
    for at in range(15):  # develop is 20 % slower than main: the feature matches develop
        post(client, h, _doc(800 * JITTER[at % 5], 20 + at, "develop"))
    v = post(client, h, _doc(801.0, 50, "feature/x", base="develop"))["verdicts"][0]
    assert v["level"] == "ok" and "develop's runs" in v["explanation"]
    # A later upload naming main moves the branch's base there.
    v = post(client, h, _doc(802.0, 51, "feature/x", base="main"))["verdicts"][0]
    assert v["level"] == "fail" and "main's runs" in v["explanation"]
    branches = {
        b["name"]: b["base_branch"] for b in client.get("/api/v1/systems/uvhttp").json()["branches"]
    }
    assert branches["feature/x"] == "main"


def test_a_repository_whose_default_branch_is_master(client: TestClient, session: Session) -> None:
    h = auth(token(session, "uvhttp"))
    _history(client, h, "master")
    v = post(client, h, _doc(1000.0, 50, "feature/y"))["verdicts"][0]
    assert v["level"] == "ok" and "master's runs" in v["explanation"]
    branches = {
        b["name"]: b["base_branch"] for b in client.get("/api/v1/systems/uvhttp").json()["branches"]
    }
    assert branches == {"master": None, "feature/y": "master"}


def test_a_branch_with_its_own_history_is_judged_on_it(
    client: TestClient, session: Session
) -> None:
    h = auth(token(session, "uvhttp"))
    _history(client, h, "main")
    for at in range(12):  # the feature's own level, 20 % below main's, is its baseline
        post(client, h, _doc(800 * JITTER[at % 5], 30 + at, "feature/z"))
    v = post(client, h, _doc(801.0, 60, "feature/z"))["verdicts"][0]
    assert v["level"] == "ok" and "'s runs" not in v["explanation"]
