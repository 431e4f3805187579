"""Security headers on every answer: pages, assets, the API, its docs, errors."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

PATHS = [
    "/",
    "/systems/uvhttp",
    "/runs/12",
    "/assets/app.js",
    "/api/v1/systems",
    "/api/openapi.json",
    "/api/docs",
    "/healthz",
    "/readyz",
    "/api/v1/nothing-here",  # 404 problem
    "/api/v1/runs/0",  # 422 problem
    "/api/v1/runs?system=a%00b",  # 422 from the URL guard, before routing
]


def _directives(csp: str) -> dict[str, list[str]]:
    parts = [d.split() for d in csp.split(";") if d.strip()]
    return {p[0]: p[1:] for p in parts}


@pytest.mark.parametrize("path", PATHS)
def test_every_answer_carries_the_security_headers(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code < 500, r.text
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["referrer-policy"] == "same-origin"
    csp = _directives(r.headers["content-security-policy"])
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["default-src"] == ["'self'"]
    assert csp["object-src"] == ["'none'"]
    assert csp["base-uri"] == ["'none'"]


def test_scripts_come_only_from_our_origin(client: TestClient) -> None:
    csp = _directives(client.get("/").headers["content-security-policy"])
    assert csp["script-src"] == ["'self'"]
    assert csp["connect-src"] == ["'self'"]
    assert csp["style-src"] == ["'self'"]
    assert not any("unsafe" in v for values in csp.values() for v in values)


def test_a_head_request_and_a_405_carry_them_too(client: TestClient) -> None:
    for r in (client.head("/"), client.delete("/api/v1/results")):
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
        assert r.headers["x-content-type-options"] == "nosniff"
