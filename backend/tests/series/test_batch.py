"""GET /api/v1/series/batch: a system page's series in one answer, points as columns."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, row_counts, token

URL = "/api/v1/series/batch"


def _doc(at: int, rps: float, lat: float, **kw: Any) -> dict[str, Any]:
    return document(
        metric(value=rps),
        metric("latency_p99", "ms", "lower_is_better", value=lat),
        at=at,
        **kw,
    )


def _points(series: dict[str, Any], runs: dict[str, Any]) -> list[tuple[str | None, float]]:
    cols = series["points"]
    return [(runs["commit"][i], v) for i, v in zip(cols["run"], cols["value"], strict=True)]


def test_batch_answers_every_series_worst_first(client: TestClient, session: Session) -> None:
    headers = auth(token(session, "uvhttp"))
    for i in range(16):
        rps = 70.0 if i >= 10 else 100.0 + (i % 3) * 0.5  # req/s drops 30 % at run 10
        doc = _doc(i, rps, 5.0 + (i % 2) * 0.01)
        small = _doc(i, 50.0, 9.0, benchmark="a_small")["results"][0]
        doc["results"].append(small)
        post(client, headers, doc)
    r = client.get(URL, params={"system": "uvhttp"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["testbed"] == "tb-1" and body["profile"] == "quick" and not body["truncated"]
    assert body["views"] == [
        {
            "testbed": "tb-1",
            "profile": "quick",
            "runs": 16,
            "series": 4,
            "last_at": body["views"][0]["last_at"],
        }
    ]
    keys = [(s["benchmark"], s["metric"], s["state"]) for s in body["series"]]
    assert keys[0] == ("medium_concurrency", "requests_per_second", "regressed")
    assert sorted(keys[1:]) == keys[1:] and all(k[2] == "steady" for k in keys[1:])
    assert len(keys) == 4
    worst = body["series"][0]
    assert worst["total"] == 16 and not worst["downsampled"]
    assert worst["points"]["value"][-2:] == [70.0, 70.0]
    assert worst["points"]["level"][0] == "no_baseline" and "fail" in worst["points"]["level"]
    assert len(worst["steps"]) == 1 and worst["steps"][0]["status"] == "open"
    assert _points(worst, body["runs"])[10] == (f"{10:07x}", 70.0)
    # one shared run table: both benchmarks' points of a run name the same index
    assert len(body["runs"]["id"]) == 16
    cols = [s["points"] for s in body["series"]]
    assert all(len(c[k]) == len(c["run"]) == 16 for c in cols for k in ("min", "p_value"))


def test_batch_downsamples_keeping_extremes_fails_and_newest(
    client: TestClient, session: Session
) -> None:
    headers = auth(token(session, "uvhttp"))
    for i in range(60):
        value = 70.0 if i == 40 else 300.0 if i == 20 else 100.0 + (i % 3)
        post(client, headers, document(metric(value=value), at=i))
    r = client.get(URL, params={"system": "uvhttp", "max_points": 10})
    (s,) = r.json()["series"]
    cols = s["points"]
    assert s["total"] == 60 and s["downsampled"] and len(cols["run"]) <= 14
    assert 300.0 in cols["value"] and 70.0 in cols["value"]  # the spike and the fail point
    assert cols["run"] == sorted(cols["run"])  # oldest first
    runs = r.json()["runs"]
    assert runs["commit"][cols["run"][-1]] == f"{59:07x}"  # the newest point is kept
    assert runs["t"] == sorted(runs["t"]) and len(runs["id"]) == len(cols["run"])


def test_batch_view_selection_and_filters(client: TestClient, session: Session) -> None:
    headers = auth(token(session, "uvhttp"))
    for i in range(3):
        post(client, headers, _doc(i, 100.0, 5.0, testbed="old-box"))
    for i in range(3, 5):
        doc = _doc(i, 100.0, 5.0, testbed="new-box")
        doc["run"]["profile"] = "standard"
        post(client, headers, doc)
    body = client.get(URL, params={"system": "uvhttp"}).json()
    assert (body["testbed"], body["profile"]) == ("new-box", "standard")
    assert [(v["testbed"], v["profile"], v["runs"]) for v in body["views"]] == [
        ("new-box", "standard", 2),
        ("old-box", "quick", 3),
    ]
    old = client.get(URL, params={"system": "uvhttp", "testbed": "old-box"}).json()
    assert old["profile"] is None and {s["total"] for s in old["series"]} == {3}
    quick = client.get(URL, params={"system": "uvhttp", "profile": "quick"}).json()
    assert quick["testbed"] == "old-box"
    none = client.get(URL, params={"system": "uvhttp", "testbed": "old-box", "profile": "x"})
    assert {s["total"] for s in none.json()["series"]} == {0}
    limited = client.get(URL, params={"system": "uvhttp", "limit": 1}).json()
    assert len(limited["series"]) == 1 and limited["truncated"] is True


def test_batch_etag_answers_304_until_a_point_lands(client: TestClient, session: Session) -> None:
    headers = auth(token(session, "uvhttp"))
    for i in range(3):
        post(client, headers, _doc(i, 100.0, 5.0))
    first = client.get(URL, params={"system": "uvhttp"})
    etag = first.headers["etag"]
    again = client.get(URL, params={"system": "uvhttp"}, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    post(client, headers, _doc(3, 101.0, 5.0))
    changed = client.get(URL, params={"system": "uvhttp"}, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["etag"] != etag


def test_batch_bad_input_is_a_clear_4xx(client: TestClient, session: Session) -> None:
    post(client, auth(token(session, "uvhttp")), _doc(0, 100.0, 5.0))
    before = row_counts(session)
    r = client.get(URL, params={"system": "nope"})
    assert r.status_code == 404 and "nope" in r.json()["detail"]
    for bad in ({"max_points": 5}, {"max_points": 1001}, {"limit": 0}, {"limit": 5000}):
        r = client.get(URL, params={"system": "uvhttp", **bad})
        assert r.status_code == 422 and r.json()["errors"][0]["loc"] == ["query", *bad]
    r = client.get(URL, params={"system": "uvhttp", "branch": "x\x00"})
    assert r.status_code == 422
    r = client.get(URL)
    assert r.status_code == 422
    assert row_counts(session) == before
    empty = client.get(URL, params={"system": "uvhttp", "branch": "nobranch"}).json()
    assert empty["series"] == [] and empty["views"] == [] and empty["testbed"] is None
