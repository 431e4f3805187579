"""GET /api/v1/badges/{system}.svg: red for regressions, amber for suspicions, green for ok,
grey for no data; cached with an ETag that follows the badge."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from benchdash.config import get_settings
from benchdash.kit.badge import BadgeColor
from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, token

JITTER = (1.0, 1.002, 0.998, 1.001, 0.999)  # about 0.2 % run to run
SVG_NS = "{http://www.w3.org/2000/svg}"


def _run(
    client: TestClient, headers: dict[str, str], value: float, at: int, **doc: Any
) -> dict[str, Any]:
    return post(client, headers, document(metric(value=value * JITTER[at % 5]), at=at, **doc))


def _badge(client: TestClient, system: str = "uvhttp", **params: str) -> tuple[int, str, Any]:
    """Status, the badge's words (label and message) and the response."""
    r = client.get(f"/api/v1/badges/{system}.svg", params=params)
    assert r.headers["content-type"] == "image/svg+xml", r.text
    root = ET.fromstring(r.content)  # well-formed XML, an <svg> root
    assert root.tag == f"{SVG_NS}svg"
    assert [e for e in root.iter() if e.tag.endswith("script")] == []
    words = [t.text for t in root.iter(f"{SVG_NS}text")]
    return r.status_code, " | ".join(dict.fromkeys(w for w in words if w)), r


def _fill(r: Any) -> set[str]:
    root = ET.fromstring(r.content)
    return {e.get("fill") for e in root.iter(f"{SVG_NS}rect") if e.get("fill", "").startswith("#")}


def test_a_branch_without_alerts_or_suspicions_is_ok(client: TestClient, session: Session) -> None:
    up = auth(token(session, "uvhttp"))
    for at in range(12):
        _run(client, up, 100, at)
    status, words, r = _badge(client, branch="main")
    assert (status, words) == (200, "perf | ok")
    assert BadgeColor.GREEN.value in _fill(r)


def test_a_suspected_point_makes_the_badge_amber(client: TestClient, session: Session) -> None:
    up = auth(token(session, "uvhttp"))
    for at in range(15):
        _run(client, up, 100, at)
    assert _run(client, up, 85, 15)["verdicts"][0]["stage"] == "suspected"
    status, words, r = _badge(client)  # branch defaults to main
    assert (status, words) == (200, "perf | 1 suspected")
    assert BadgeColor.AMBER.value in _fill(r)
    assert _run(client, up, 100, 16)["verdicts"][0]["stage"] is None
    assert _badge(client)[1] == "perf | ok", "a spike that went away is no longer suspected"


def test_open_and_acknowledged_alerts_are_regressions(client: TestClient, session: Session) -> None:
    up = auth(token(session, "uvhttp"))
    for bench in ("low_concurrency", "medium_concurrency"):
        for at in range(15):
            _run(client, up, 100, at, benchmark=bench, external_id=f"{bench}-{at}")
        for at in range(15, 19):  # a lasting 15 % drop: confirmed, one alert per series
            _run(client, up, 85, at, benchmark=bench, external_id=f"{bench}-{at}")
    for at in range(15):  # another branch stays fine: its badge is its own
        _run(client, up, 100, at, branch="feature")
    alerts = client.get("/api/v1/alerts").json()
    assert len(alerts) == 2
    status, words, r = _badge(client, branch="main")
    assert (status, words) == (200, "perf | 2 regressions")
    assert BadgeColor.RED.value in _fill(r)
    assert _badge(client, branch="feature")[1] == "perf | ok"

    trigger = auth(token(session, "uvhttp", scope="trigger"))
    acked = client.post(f"/api/v1/alerts/{alerts[0]['id']}/acknowledge", headers=trigger)
    assert acked.status_code == 200
    assert _badge(client, branch="main")[1] == "perf | 2 regressions", "acknowledged still counts"


def test_a_branch_still_learning_is_not_judged_never_ok(
    client: TestClient, session: Session
) -> None:
    up = auth(token(session, "uvhttp"))
    for at in range(3):  # too few runs to measure the noise: every point is learning
        assert _run(client, up, 100, at)["verdicts"][0]["level"] in ("learning", "no_baseline")
    status, words, r = _badge(client, branch="main")
    assert (status, words) == (200, "perf | not judged yet")
    assert BadgeColor.GREY.value in _fill(r) and BadgeColor.GREEN.value not in _fill(r)


def test_a_warn_level_alert_is_amber_not_red(client: TestClient, session: Session) -> None:
    up = auth(token(session, "uvhttp"))
    for at in range(25):
        _run(client, up, 100, at)
    for at in range(25, 30):  # a lasting drop past the warn threshold, short of the fail one
        _run(client, up, 92, at)
    alerts = client.get("/api/v1/alerts").json()
    assert [a["level"] for a in alerts] == ["warn"]
    status, words, r = _badge(client, branch="main")
    assert (status, words) == (200, "perf | 1 worse (warn)")
    assert BadgeColor.AMBER.value in _fill(r) and BadgeColor.RED.value not in _fill(r)


def test_no_data_is_grey_also_for_an_unknown_system(client: TestClient, session: Session) -> None:
    up = auth(token(session, "uvhttp"))
    _run(client, up, 100, 0)
    status, words, r = _badge(client, branch="no-such-branch")
    assert (status, words) == (200, "perf | no data")
    assert BadgeColor.GREY.value in _fill(r)
    status, words, r = _badge(client, "nosuchsystem")
    assert (status, words) == (200, "perf | no data")  # an embedding page still shows it
    assert r.headers["Cache-Control"] == "no-cache"
    assert BadgeColor.GREY.value in _fill(r)
    assert "ETag" not in r.headers


def test_the_badge_is_cached_until_it_changes(client: TestClient, session: Session) -> None:
    up = auth(token(session, "uvhttp"))
    for at in range(15):
        _run(client, up, 100, at)
    first = client.get("/api/v1/badges/uvhttp.svg")
    etag = first.headers["etag"]
    assert first.headers["cache-control"] == "public, max-age=300"
    again = client.get("/api/v1/badges/uvhttp.svg", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == etag
    listed = client.get("/api/v1/badges/uvhttp.svg", headers={"If-None-Match": f'"x", W/{etag}'})
    assert listed.status_code == 304
    _run(client, up, 85, 15)  # now suspected: a new badge, a new ETag
    changed = client.get("/api/v1/badges/uvhttp.svg", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["etag"] != etag
    assert b"1 suspected" in changed.content


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/api/v1/badges/UPPER.svg", {}),  # not a slug
        ("/api/v1/badges/uvhttp.svg", {"branch": ""}),
        ("/api/v1/badges/uvhttp.svg", {"branch": "x" * 201}),
    ],
)
def test_bad_parameters_are_problems(client: TestClient, path: str, params: dict[str, str]) -> None:
    r = client.get(path, params=params)
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")


def test_a_badge_path_without_svg_is_not_found(client: TestClient) -> None:
    r = client.get("/api/v1/badges/uvhttp.png")
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("application/problem+json")


def test_without_public_reads_badges_need_credentials_and_stay_private(
    client: TestClient, session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    up = auth(token(session, "uvhttp"))
    _run(client, up, 100, 0)
    monkeypatch.setenv("BENCHDASH_PUBLIC_READ", "false")
    get_settings.cache_clear()
    try:
        anonymous = client.get("/api/v1/badges/uvhttp.svg")
        assert anonymous.status_code == 401
        assert anonymous.headers["content-type"].startswith("application/problem+json")
        signed = client.get("/api/v1/badges/uvhttp.svg", headers=up)
        assert signed.status_code == 200
        assert signed.headers["cache-control"] == "private, max-age=300", "no shared caches"
        image = client.get(
            "/api/v1/series/image.svg",
            params={
                "system": "uvhttp",
                "benchmark": "medium_concurrency",
                "metric": "requests_per_second",
            },
            headers=up,
        )
        assert image.status_code == 200 and image.headers["cache-control"].startswith("private")
    finally:
        monkeypatch.delenv("BENCHDASH_PUBLIC_READ")
        get_settings.cache_clear()


def test_a_branch_with_control_characters_is_refused_not_a_500(client: TestClient) -> None:
    r = client.get("/api/v1/badges/uvhttp.svg", params={"branch": "main\x01\x08"})
    assert r.status_code == 422  # found by the fuzzer: the SVG could not hold it
    assert r.headers["content-type"] == "application/problem+json"


def test_words_xml_cannot_hold_are_dropped_from_the_svg() -> None:
    from benchdash.kit.badge import badge_svg

    svg = badge_svg("perf", "ok\x1c", BadgeColor.GREEN, title="relay on feat\x01/x: perf ok")
    root = ET.fromstring(svg)  # parses: no control character left
    assert "relay on feat/x: perf ok" in ET.tostring(root, encoding="unicode")
