"""GET /api/v1/series, including downsampling that keeps warn/fail points."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import numpy as np
import orjson
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.series.service import SeriesQuery, downsample_indices, read_data
from tests.fixtures.api import post, verdict_copies_agree
from tests.fixtures.factories import auth, document, metric, token

BATCH = "/api/v1/series/batch"


def test_series_points_in_time_order_with_verdicts(client: TestClient, session: Session) -> None:
    headers = auth(token(session, "uvhttp"))
    history = [100, 101, 99, 100, 100.5, 100, 99.5, 100, 101, 100, 99, 100.5, 85]
    for i, v in enumerate(history):
        post(client, headers, document(metric(samples=[v * f for f in (0.999, 1, 1.001)]), at=i))
    r = client.get(
        "/api/v1/series",
        params={
            "system": "uvhttp",
            "benchmark": "medium_concurrency",
            "metric": "requests_per_second",
        },
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["unit"] == "req/s" and body["testbed"] == "tb-1" and body["total"] == 13
    values = [p["value"] for p in body["points"]]
    assert values == history
    assert body["points"][0]["level"] == "no_baseline"
    assert body["points"][-1]["level"] == "fail"
    assert body["points"][-1]["min"] < body["points"][-1]["max"]
    verdict_copies_agree(session)  # what the ETag and downsampling read


def test_downsampling_keeps_spikes_and_every_fail() -> None:
    n = 10_000
    t = np.arange(n, dtype=np.float64)
    y = np.sin(t / 300) + 10
    y[1234] = 100  # a spike
    keep = np.array([777, 5555], dtype=np.int64)  # fail points on ordinary values
    idx = downsample_indices(t, y, keep, 500)
    assert 1234 in idx and 777 in idx and 5555 in idx
    assert len(idx) <= 502
    assert list(idx) == sorted(idx)


def test_series_endpoint_downsamples(client: TestClient, session: Session) -> None:
    headers = auth(token(session, "uvhttp"))
    for i in range(40):
        value = 70.0 if i == 30 else 100.0 + (i % 3)  # a 30 % drop in req/s at run 30
        post(client, headers, document(metric(value=value), at=i))
    r = client.get(
        "/api/v1/series",
        params={
            "system": "uvhttp",
            "benchmark": "medium_concurrency",
            "metric": "requests_per_second",
            "max_points": 10,
        },
    )
    body = r.json()
    assert body["total"] == 40 and body["downsampled"] is True
    assert 10 <= len(body["points"]) <= 12
    assert [p["value"] for p in body["points"] if p["level"] == "fail"] == [70.0]


def test_series_errors_are_problems(client: TestClient, session: Session) -> None:
    r = client.get("/api/v1/series", params={"system": "nope", "benchmark": "b", "metric": "m"})
    assert r.status_code == 404 and "nope" in r.json()["detail"]
    r = client.get(
        "/api/v1/series",
        params={"system": "nope", "benchmark": "b", "metric": "m", "max_points": 1},
    )
    assert r.status_code == 422 and r.json()["errors"][0]["loc"] == ["query", "max_points"]


def test_time_filter(client: TestClient, session: Session) -> None:
    headers = auth(token(session, "uvhttp"))
    for i in range(5):
        post(client, headers, document(metric(value=100.0), at=i * 60))
    from tests.fixtures.factories import T0

    r = client.get(
        "/api/v1/series",
        params={
            "system": "uvhttp",
            "benchmark": "medium_concurrency",
            "metric": "requests_per_second",
            "from": (T0 + timedelta(minutes=90)).isoformat(),
            "to": (T0 + timedelta(minutes=200)).isoformat(),
        },
    )
    assert [p["commit"] for p in r.json()["points"]] == [f"{120:07x}", f"{180:07x}"]


def test_profile_filter(client: TestClient, session: Session) -> None:
    headers = auth(token(session, "uvhttp"))
    for i, profile in enumerate(["quick", "standard", "quick"]):
        doc = document(metric(value=100.0 + i), at=i)
        doc["run"]["profile"] = profile
        post(client, headers, doc)
    r = client.get(
        "/api/v1/series",
        params={
            "system": "uvhttp",
            "benchmark": "medium_concurrency",
            "metric": "requests_per_second",
            "profile": "quick",
        },
    )
    assert [p["value"] for p in r.json()["points"]] == [100.0, 102.0]


def test_an_unchanged_series_answers_304_to_its_etag(client: TestClient, session: Session) -> None:
    headers = auth(token(session, "uvhttp"))
    for i, v in enumerate([100, 101, 99]):
        post(client, headers, document(metric(value=v), at=i))
    params = {
        "system": "uvhttp",
        "benchmark": "medium_concurrency",
        "metric": "requests_per_second",
    }
    first = client.get("/api/v1/series", params=params)
    etag = first.headers["etag"]
    again = client.get("/api/v1/series", params=params, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    post(client, headers, document(metric(value=102), at=3))
    changed = client.get("/api/v1/series", params=params, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["etag"] != etag
    assert [p["value"] for p in changed.json()["points"]] == [100, 101, 99, 102]


def test_points_as_postgresql_writes_them_equal_the_rows_and_the_columns(
    client: TestClient, session: Session
) -> None:
    """The answer's points (JSON built by PostgreSQL) say what the rows say, read through
    Python (`read_data`, which the images use), whole and downsampled; form=columns holds the
    same points as one array a field (t in ms)."""
    headers = auth(token(session, "uvhttp"))
    for i in range(30):
        value = 70.0 if i == 20 else 100.0 + (i % 3) * 0.5
        post(client, headers, document(metric(samples=[value * 0.999, value, value * 1.001]), at=i))
    key = {"system": "uvhttp", "benchmark": "medium_concurrency", "metric": "requests_per_second"}
    for max_points in (1000, 10):
        params = {**key, "max_points": max_points}
        body = client.get("/api/v1/series", params=params).json()
        query = SeriesQuery(**key, max_points=max_points)  # type: ignore[arg-type]
        rows = read_data(session=session, query=query).data
        assert rows is not None
        expected = json.loads(orjson.dumps(rows["points"]))
        assert body["points"] == expected and body["columns"] is None
        assert body["downsampled"] is (max_points == 10) and body["total"] == 30
        assert {p["level"] for p in body["points"]} >= {"fail", "no_baseline"}
        answer = client.get("/api/v1/series", params={**params, "form": "columns"})
        assert answer.status_code == 200, answer.text
        cols = answer.json()
        assert cols["points"] == [] and cols["total"] == 30
        columns = cols["columns"]
        as_points = [
            dict(zip(columns, point, strict=True)) for point in zip(*columns.values(), strict=True)
        ]
        for p in as_points:
            p["t"] = datetime.fromtimestamp(p["t"] / 1000, UTC).isoformat()
        assert as_points == expected


def test_points_stored_before_the_chart_copies_read_their_verdicts(
    client: TestClient, session: Session
) -> None:
    """Measurements carry their verdict's baseline, change and p-value (migration 0019); rows
    stored before have no copies (`chart_copied` false) and are read through their verdict:
    the single read and the page's batch answer the same either way."""
    headers = auth(token(session, "uvhttp"))
    for i in range(14):
        value = 80.0 if i == 12 else 100.0 + (i % 3) * 0.5
        post(client, headers, document(metric(samples=[value * 0.999, value, value * 1.001]), at=i))
    copied = session.execute(
        text("SELECT count(*) FROM measurement WHERE chart_copied AND change_pct IS NOT NULL")
    ).scalar_one()
    assert copied > 0
    key = {"system": "uvhttp", "benchmark": "medium_concurrency", "metric": "requests_per_second"}
    batch = {"system": "uvhttp"}
    before = (
        client.get("/api/v1/series", params=key).json(),
        client.get(BATCH, params=batch).json(),
    )
    assert any(p["change_pct"] for p in before[0]["points"])
    session.execute(  # as stored before 0019: the copies absent
        text(
            "UPDATE measurement SET chart_copied = false, baseline_value = NULL, "
            "change_pct = NULL, p_value = NULL WHERE run_id % 2 = 0"
        )
    )
    session.flush()
    after = (
        client.get("/api/v1/series", params=key).json(),
        client.get(BATCH, params=batch).json(),
    )
    assert after[0]["points"] == before[0]["points"]
    assert after[1]["series"] == before[1]["series"]


def test_one_pass_reads_and_stamped_reads_agree_at_the_max_points_boundary(
    client: TestClient, session: Session
) -> None:
    """Without If-None-Match a range of at most max_points rows is counted, stamped and written
    in one statement; one row more takes the stamp-first path. Both give the ETag a revalidation
    computes (304), and the same points as the path without the shortcut."""
    headers = auth(token(session, "uvhttp"))
    for i in range(12):
        post(client, headers, document(metric(value=100.0 + i % 3), at=i))
    session.execute(
        text(
            "UPDATE measurement SET stage = 'confirmed' "
            "WHERE id = (SELECT max(id) FROM measurement)"
        )
    )
    key = {"system": "uvhttp", "benchmark": "medium_concurrency", "metric": "requests_per_second"}
    for max_points in (11, 12, 13):
        for form in ("points", "columns"):
            params = {**key, "max_points": max_points, "form": form}
            first = client.get("/api/v1/series", params=params)
            assert first.status_code == 200, first.text
            body = first.json()
            assert body["total"] == 12 and body["downsampled"] is (max_points < 12)
            again = client.get(
                "/api/v1/series", params=params, headers={"If-None-Match": first.headers["etag"]}
            )
            assert again.status_code == 304
            stale = client.get("/api/v1/series", params=params, headers={"If-None-Match": '"x"'})
            assert stale.json() == body and stale.headers["etag"] == first.headers["etag"]
        stages = [p["stage"] for p in client.get("/api/v1/series", params=key).json()["points"]]
        assert stages[-1] == "confirmed"


def test_without_a_testbed_the_testbed_of_the_newest_point_is_read(
    client: TestClient, session: Session
) -> None:
    headers = auth(token(session, "uvhttp"))
    for i, testbed in enumerate(["box-a", "box-a", "box-b", "box-b"]):
        post(client, headers, document(metric(value=100.0 + i), at=i, testbed=testbed))
    key = {"system": "uvhttp", "benchmark": "medium_concurrency", "metric": "requests_per_second"}
    newest = client.get("/api/v1/series", params=key).json()
    assert (newest["testbed"], newest["testbeds"], newest["total"]) == (
        "box-b",
        ["box-a", "box-b"],
        2,
    )
    post(client, headers, document(metric(value=99.0), at=4, testbed="box-a"))
    assert client.get("/api/v1/series", params=key).json()["testbed"] == "box-a"
    chosen = client.get("/api/v1/series", params={**key, "testbed": "box-b"}).json()
    assert [p["value"] for p in chosen["points"]] == [102.0, 103.0]
    missing = client.get("/api/v1/series", params={**key, "testbed": "box-c"})
    assert missing.status_code == 404 and "box-c" in missing.json()["detail"]
