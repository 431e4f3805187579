"""The UI fallback: any path a person can type answers the SPA or a 404 problem, never a 500."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

PROBLEM = "application/problem+json"


@pytest.mark.parametrize("length", [255, 256, 300, 4096])
@pytest.mark.parametrize("prefix", ["/", "/systems/", "/runs/1/", "/a/b/c/"])
def test_a_long_path_segment_serves_the_spa(client: TestClient, prefix: str, length: int) -> None:
    r = client.get(prefix + "x" * length)
    assert r.status_code == 200, r.text[:200]
    assert r.headers["content-type"].startswith("text/html")
    assert '<div id="root">' in r.text


@pytest.mark.parametrize("length", [256, 1000])
def test_a_long_asset_name_is_a_404_problem(client: TestClient, length: int) -> None:
    r = client.get("/assets/" + "y" * length + ".js")
    assert r.status_code == 404, r.text[:200]
    assert r.headers["content-type"] == PROBLEM


def test_a_long_multibyte_segment_serves_the_spa(client: TestClient) -> None:
    # 100 characters of 3 UTF-8 bytes each: a 300-byte file name.
    r = client.get("/systems/" + "\u20ac" * 100)
    assert r.status_code == 200 and '<div id="root">' in r.text


def test_files_of_the_build_are_served_and_nothing_outside_it(client: TestClient) -> None:
    assert client.get("/assets/app.js").text == "console.log('app')\n"
    r = client.get("/..%2f..%2fetc/passwd")
    assert r.status_code == 200 and '<div id="root">' in r.text


def test_without_a_built_ui_the_answer_is_a_404_problem(
    client: TestClient, ui_dist: object
) -> None:
    from pathlib import Path

    index = Path(str(ui_dist)) / "index.html"
    index.unlink()
    r = client.get("/runs/3")
    assert r.status_code == 404 and r.headers["content-type"] == PROBLEM
    assert "make -C frontend build" in r.json()["detail"]
