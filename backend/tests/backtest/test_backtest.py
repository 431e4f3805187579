"""POST /api/v1/backtest on a stored series with a known 12 % step (real PostgreSQL): the
replay finds it at the right run under 5/10, nothing under 15/20, and writes nothing."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.exc import InternalError
from sqlalchemy.orm import Session

from benchdash.backtest import endpoints, queries
from tests.fixtures.api import post
from tests.fixtures.factories import TABLES, auth, document, metric, token

JITTER = (1.0, 1.003, 0.997, 1.002, 0.998)
STABLE, AFTER = 30, 10  # runs before the step, runs after it


def seed(client: TestClient, session: Session) -> list[dict[str, Any]]:
    """A CI-fed ns series: 30 runs at 1000, then 10 runs 12 % slower (the first bad: run 30)."""
    up = auth(token(session, "uvhttp"))
    runs = []
    for at in range(STABLE + AFTER):
        value = 1000 * (1.12 if at >= STABLE else 1.0) * JITTER[at % 5]
        m = metric("time", "ns", "lower_is_better", value=value)
        runs.append(post(client, up, document(m, at=at))["run"])
    return runs


def body(**over: Any) -> dict[str, Any]:
    return {"system": "uvhttp", "warn": 5, "fail": 10, **over}


def snapshot(session: Session) -> dict[str, str]:
    """Every row of every table, hashed per table."""
    return {
        t: session.execute(
            text(
                "SELECT count(*) || ':' || coalesce(md5(string_agg(x::text, '|' "
                f"ORDER BY x::text)), '') FROM {t} x"
            )
        ).scalar_one()
        for t in (*TABLES, "series", "series_restart")
    }


def test_a_12_percent_step_opens_one_fail_alert_at_its_first_bad_run(
    client: TestClient, session: Session
) -> None:
    runs = seed(client, session)
    r = client.post("/api/v1/backtest", json=body())
    assert r.status_code == 200, r.text
    out = r.json()
    [s] = out["series"]
    assert (s["benchmark"], s["metric"], s["testbed"], s["runs"]) == (
        "medium_concurrency",
        "time",
        "tb-1",
        STABLE + AFTER,
    )
    [would] = s["would_open"]
    first_bad = runs[STABLE]
    assert (would["kind"], would["level"], would["run_id"], would["commit"]) == (
        "step",
        "fail",
        first_bad["id"],
        first_bad["commit"],
    )
    assert 10 < would["change_pct"] < 14
    assert would["confirmed_by"] in ("change-point", "persistence")
    assert first_bad["id"] < would["alarm_run_id"] <= runs[STABLE + 4]["id"]
    assert would["started_at"].startswith(first_bad["started_at"][:19])
    # The alert the ingest opened under the metric's thresholds (5/10) is listed beside it.
    [did] = s["did_open"]
    assert (did["run_id"], did["status"], did["kind"]) == (first_bad["id"], "open", "step")
    assert s["current"] == {"warn": 5.0, "fail": 10.0} == s["thresholds"]
    t = out["totals"]
    assert (t["series"], t["runs"]) == (1, STABLE + AFTER)
    assert t["would_open"] == {
        "events": 1,
        "per_100_runs": 2.5,
        "warn": 0,
        "fail": 1,
        "step": 1,
        "drift": 0,
    }
    assert t["did_open"]["events"] == 1


def test_at_15_20_nothing_would_open_and_overrides_win(
    client: TestClient, session: Session
) -> None:
    seed(client, session)
    high = client.post("/api/v1/backtest", json=body(warn=15, fail=20)).json()
    assert [s["would_open"] for s in high["series"]] == [[]]
    assert high["totals"]["would_open"]["events"] == 0
    assert high["totals"]["did_open"]["events"] == 1  # what did open is still shown
    # The same thresholds as a per-metric override of 5/10; a 7/12 override grades it warn.
    over = body(overrides=[{"metric": "time", "warn": 15, "fail": 20}])
    assert client.post("/api/v1/backtest", json=over).json()["series"][0]["would_open"] == []
    warn = body(overrides=[{"metric": "time", "warn": 7, "fail": 12.5}])
    [s] = client.post("/api/v1/backtest", json=warn).json()["series"]
    assert [a["level"] for a in s["would_open"]] == ["warn"]
    assert s["thresholds"] == {"warn": 7.0, "fail": 12.5}


def test_one_series_a_testbed_and_max_runs_select_what_is_replayed(
    client: TestClient, session: Session
) -> None:
    runs = seed(client, session)
    up = auth(token(session, "uvhttp"))
    post(
        client,
        up,
        document(
            metric("time", "ns", "lower_is_better", value=5.0),
            at=90,
            benchmark="other",
            testbed="tb-2",
        ),
    )
    every = client.post("/api/v1/backtest", json=body()).json()
    assert [(s["benchmark"], s["testbed"]) for s in every["series"]] == [
        ("medium_concurrency", "tb-1"),
        ("other", "tb-2"),
    ]
    only = client.post("/api/v1/backtest", json=body(testbed="tb-2")).json()
    assert [s["benchmark"] for s in only["series"]] == ["other"]
    bid = every["series"][0]["benchmark_id"]
    one = client.post("/api/v1/backtest", json=body(benchmark_id=bid, metric="time")).json()
    assert [s["benchmark"] for s in one["series"]] == ["medium_concurrency"]
    # The newest 20 runs start at run 20: the step is then in warm-up (10 runs before it)
    # and the stored alert still names a replayed run.
    recent = client.post(
        "/api/v1/backtest", json=body(benchmark_id=bid, metric="time", max_runs=20)
    ).json()
    [s] = recent["series"]
    assert s["runs"] == 20 and s["first_run_at"].startswith(runs[20]["started_at"][:19])
    assert [a["run_id"] for a in s["did_open"]] == [runs[STABLE]["id"]]


def test_nothing_is_written(client: TestClient, session: Session) -> None:
    seed(client, session)
    before = snapshot(session)
    for b in (body(), body(warn=1, fail=2), body(warn=15, fail=20)):
        assert client.post("/api/v1/backtest", json=b).status_code == 200
    assert snapshot(session) == before


def test_the_reads_run_where_postgresql_refuses_writes(session: Session) -> None:
    with pytest.raises(InternalError, match="read-only transaction"), queries.read_only(session):
        session.execute(text("INSERT INTO testbed (name, created_at) VALUES ('sneaky', now())"))
    # Rolled back to before the savepoint: the session writes again.
    session.execute(text("INSERT INTO testbed (name, created_at) VALUES ('fine', now())"))
    names = session.execute(text("SELECT name FROM testbed WHERE name IN ('sneaky', 'fine')"))
    assert names.scalars().all() == ["fine"]


def test_the_replay_runs_off_the_event_loop() -> None:
    # FastAPI runs a plain function in its worker-thread pool; a coroutine would block the loop.
    assert not inspect.iscoroutinefunction(endpoints.backtest)


@pytest.mark.parametrize(
    ("over", "message"),
    [
        ({"warn": 10, "fail": 10}, "must be below fail"),
        ({"warn": 12, "fail": 10}, "must be below fail"),
        ({"warn": 0}, "greater than 0"),
        ({"fail": 1001}, "less than or equal to 1000"),
        ({"benchmark_id": 1}, "benchmark_id and metric together"),
        ({"metric": "time"}, "benchmark_id and metric together"),
        ({"overrides": [{"metric": "time", "warn": 9, "fail": 3}]}, "override of time"),
        (
            {"overrides": [{"metric": "t", "warn": 1, "fail": 3}] * 2},
            "each metric at most once",
        ),
        ({"max_runs": 5}, "greater than or equal to 20"),
        ({"extra": 1}, "Extra inputs"),
    ],
)
def test_bad_input_is_a_422_with_a_message(
    client: TestClient, over: dict[str, Any], message: str
) -> None:
    r = client.post("/api/v1/backtest", json=body(**over))
    assert r.status_code == 422 and message in r.text, r.text


@pytest.mark.parametrize(
    ("over", "message"),
    [
        ({"system": "nope"}, "no system 'nope'"),
        ({"branch": "nope"}, "has no branch 'nope'"),
        ({"testbed": "nope"}, "no testbed 'nope'"),
        ({"overrides": [{"metric": "nope", "warn": 1, "fail": 2}]}, "has no metric 'nope'"),
        ({"benchmark_id": 2**31 - 1, "metric": "time"}, "has no benchmark with id"),
    ],
)
def test_unknown_names_are_404(
    client: TestClient, session: Session, over: dict[str, Any], message: str
) -> None:
    up = auth(token(session, "uvhttp"))
    post(client, up, document(metric("time", "ns", "lower_is_better", value=5.0)))
    r = client.post("/api/v1/backtest", json=body(**over))
    assert r.status_code == 404 and message in r.text, r.text


def test_past_the_limit_is_a_422_naming_it(
    client: TestClient, session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed(client, session)
    monkeypatch.setattr(queries, "MAX_POINTS", 30)
    r = client.post("/api/v1/backtest", json=body())
    assert r.status_code == 422, r.text
    assert "would replay 40 points (1 series" in r.text and "the limit is 30 points" in r.text
    ok = client.post("/api/v1/backtest", json=body(max_runs=20))
    assert ok.status_code == 200 and ok.json()["limit"] == 30
