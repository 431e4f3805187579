"""HEAD answers like GET without a body; a wrong method names the right ones (or is a 404)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

PROBLEM = "application/problem+json"


@pytest.mark.parametrize(
    "path", ["/", "/runs/5", "/assets/app.js", "/api/v1/systems", "/api/docs", "/healthz"]
)
def test_head_is_get_without_a_body(client: TestClient, path: str) -> None:
    get, head = client.get(path), client.head(path)
    assert get.status_code == 200, get.text
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-type"] == get.headers["content-type"]
    assert head.headers["content-length"] == str(len(get.content))
    assert "frame-ancestors 'none'" in head.headers["content-security-policy"]


def test_head_of_a_missing_run_is_a_404_without_a_body(client: TestClient) -> None:
    r = client.head("/api/v1/runs/999999")
    assert r.status_code == 404 and r.content == b""
    assert r.headers["content-type"] == PROBLEM


@pytest.mark.parametrize("path", ["/", "/systems/uvhttp", "/api/docs", "/api/openapi.json"])
def test_a_post_to_a_page_is_405_allowing_get_and_head(client: TestClient, path: str) -> None:
    r = client.post(path)
    assert r.status_code == 405 and r.headers["content-type"] == PROBLEM
    assert r.headers["allow"] == "GET, HEAD"


def test_an_api_route_keeps_its_own_allow(client: TestClient) -> None:
    r = client.get("/api/v1/results")
    assert r.status_code == 405 and r.headers["allow"] == "POST"


def test_a_post_to_an_unknown_api_path_is_a_404(client: TestClient) -> None:
    r = client.post("/api/v1/no-such-thing")
    assert r.status_code == 404 and r.headers["content-type"] == PROBLEM
