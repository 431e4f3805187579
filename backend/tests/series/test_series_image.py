"""GET /api/v1/series/image.{svg,png}: one series' trend as an image, with its baseline and
confirmed steps, cached with the series' ETag."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from benchdash.series import chart
from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, token

JITTER = (1.0, 1.002, 0.998, 1.001, 0.999)
PARAMS = {"system": "uvhttp", "benchmark": "medium_concurrency", "metric": "requests_per_second"}
SVG_NS = "{http://www.w3.org/2000/svg}"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _run(client: TestClient, headers: dict[str, str], value: float, at: int, **doc: Any) -> None:
    post(client, headers, document(metric(value=value * JITTER[at % 5]), at=at, **doc))


def _step(client: TestClient, session: Session) -> None:
    """15 steady runs, then a lasting 15 % drop: one confirmed step (a fail alert)."""
    up = auth(token(session, "uvhttp"))
    for at in range(15):
        _run(client, up, 100, at)
    for at in range(15, 19):
        _run(client, up, 85, at)


def _texts(svg: bytes) -> list[str]:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG_NS}svg"
    assert [e for e in root.iter() if e.tag.endswith("script")] == []
    return [t.text.strip() for t in root.iter(f"{SVG_NS}text") if t.text and t.text.strip()]


def test_the_svg_has_title_points_baseline_and_step(client: TestClient, session: Session) -> None:
    _step(client, session)
    assert len(client.get("/api/v1/alerts").json()) == 1
    r = client.get("/api/v1/series/image.svg", params={**PARAMS, "params": '{"threads":4}'})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "image/svg+xml"
    root = ET.fromstring(r.content)
    assert (root.get("width"), root.get("height")) == (
        "480pt",
        "180pt",
    )  # 640 × 240 CSS px (96 px per inch)
    texts = _texts(r.content)
    title = 'uvhttp · medium_concurrency {"threads":4} · requests_per_second (req/s)'
    assert title in texts
    assert "branch main · testbed tb-1 · higher is better" in texts
    assert {"value", "baseline", "fail step"} <= set(texts), texts  # the legend
    assert "req/s" in texts  # the y axis


def test_the_png_is_a_640_by_240_image(client: TestClient, session: Session) -> None:
    _step(client, session)
    r = client.get("/api/v1/series/image.png", params=PARAMS)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "image/png"
    assert r.content.startswith(PNG_MAGIC)
    width, height = int.from_bytes(r.content[16:20]), int.from_bytes(r.content[20:24])
    assert (width, height) == (chart.WIDTH_PX, chart.HEIGHT_PX)


def test_the_image_is_cached_until_the_series_changes(client: TestClient, session: Session) -> None:
    up = auth(token(session, "uvhttp"))
    for at in range(3):
        _run(client, up, 100, at)
    first = client.get("/api/v1/series/image.svg", params=PARAMS)
    etag = first.headers["etag"]
    assert first.headers["cache-control"] == "public, max-age=300"
    assert etag != client.get("/api/v1/series", params=PARAMS).headers["etag"], "own ETag"
    assert etag != client.get("/api/v1/series/image.png", params=PARAMS).headers["etag"]
    again = client.get("/api/v1/series/image.svg", params=PARAMS, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    _run(client, up, 100, 3)
    changed = client.get("/api/v1/series/image.svg", params=PARAMS, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["etag"] != etag


def test_names_are_text_not_markup_or_tex(client: TestClient, session: Session) -> None:
    up = auth(token(session, "uvhttp"))
    bench = "<script>alert(1)</script> $\\frac{a}{b}$"
    _run(client, up, 100, 0, benchmark=bench)
    r = client.get("/api/v1/series/image.svg", params={**PARAMS, "benchmark": bench})
    assert r.status_code == 200, r.text
    assert any(bench in t for t in _texts(r.content))
    assert b"<script" not in r.content
    assert client.get("/api/v1/series/image.png", params={**PARAMS, "benchmark": bench}).is_success


@pytest.mark.parametrize(
    ("path", "params", "status"),
    [
        ("/api/v1/series/image.svg", {**PARAMS, "system": "nope"}, 404),
        ("/api/v1/series/image.svg", {**PARAMS, "branch": "nope"}, 404),
        ("/api/v1/series/image.svg", {**PARAMS, "testbed": "nope"}, 404),
        ("/api/v1/series/image.gif", PARAMS, 422),
        ("/api/v1/series/image.svg", {"system": "uvhttp"}, 422),
        ("/api/v1/series/image.png", {**PARAMS, "metric": "m" * 121}, 422),
    ],
)
def test_bad_parameters_are_problems(
    client: TestClient, session: Session, path: str, params: dict[str, str], status: int
) -> None:
    up = auth(token(session, "uvhttp"))
    _run(client, up, 100, 0)
    r = client.get(path, params=params)
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")


def test_a_benchmark_with_several_parameter_sets_needs_params(
    client: TestClient, session: Session
) -> None:
    up = auth(token(session, "uvhttp"))
    for threads in (4, 8):
        _run(client, up, 100, threads, parameters={"threads": threads})
    r = client.get("/api/v1/series/image.png", params=PARAMS)
    assert r.status_code == 422 and "params" in r.json()["detail"]
    picked = client.get("/api/v1/series/image.png", params={**PARAMS, "params": '{"threads":8}'})
    assert picked.status_code == 200 and picked.content.startswith(PNG_MAGIC)
