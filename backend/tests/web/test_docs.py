"""The API docs page: Swagger UI from our own origin, no inline script, no CDN."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

PROBLEM = "application/problem+json"


def _urls(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="([^"]+)"', html)


def test_the_docs_page_loads_everything_from_our_origin(client: TestClient) -> None:
    r = client.get("/api/docs")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    urls = _urls(r.text)
    assert urls, r.text
    for url in urls:
        assert url.startswith(("/", "data:")) and not url.startswith("//"), url
    assert "cdn" not in r.text.lower()
    # Every <script> has a src: nothing inline for the CSP to allow.
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", r.text, re.S)
    assert scripts and all('src="' in attrs and not body.strip() for attrs, body in scripts)
    for url in urls:
        if url.startswith("data:"):
            continue
        got = client.get(url)
        assert got.status_code == 200, url
    kinds = {
        u.rsplit(".", 1)[-1]: client.get(u).headers["content-type"]
        for u in urls
        if not u.startswith("data:")
    }
    assert kinds["js"].startswith(("application/javascript", "text/javascript"))
    assert kinds["css"].startswith("text/css")


def test_the_initializer_points_at_our_openapi_document(client: TestClient) -> None:
    html = client.get("/api/docs").text
    init = next(u for u in _urls(html) if u.endswith("init.js"))
    js = client.get(init).text
    assert "/api/openapi.json" in js and "SwaggerUIBundle" in js
    assert "validatorUrl: null" in js  # no badge fetched from a third party


def test_docs_without_the_built_assets_say_how_to_build_them(
    client: TestClient, ui_dist: Path
) -> None:
    for f in (ui_dist / "swagger-ui").iterdir():
        f.unlink()
    r = client.get("/api/docs")
    assert r.status_code == 404 and r.headers["content-type"] == PROBLEM
    assert "make -C frontend build" in r.json()["detail"]


def test_the_oauth2_redirect_page_with_its_inline_script_is_gone(client: TestClient) -> None:
    r = client.get("/api/docs/oauth2-redirect")
    assert r.status_code == 404 and r.headers["content-type"] == PROBLEM
