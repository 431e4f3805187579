"""A system page's kept points are refreshed by the API itself once a run lands: after the
uploads pause, the kept rows hold the new run with no page read in between."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import psycopg

from benchdash.series import refresh
from tests.integration.conftest import Api

_KEPT = """SELECT c.stamp FROM series_chart c JOIN series s ON s.id = c.series_id
    JOIN system sy ON sy.id = s.system_id WHERE sy.slug = 'pages' ORDER BY s.id"""


def _doc(i: int) -> dict[str, Any]:
    metrics = [
        {"name": "t", "unit": "ns", "direction": "lower_is_better", "value": 100.0 + i % 3},
        {"name": "ops", "unit": "op/s", "direction": "higher_is_better", "value": 50.0 + i % 2},
    ]
    return {
        "schema": "benchdash/v1",
        "system": "pages",
        "run": {"external_id": f"pages-{i}", "commit": f"{i:08x}", "testbed": "page-box"},
        "results": [{"benchmark": "b", "metrics": metrics}],
    }


def _call(api: Api, path: str, body: dict[str, Any] | None = None) -> Any:
    request = urllib.request.Request(
        api.url + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {api.token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.load(r)


def _stamps(api: Api) -> list[str]:
    with psycopg.connect(api.database_url.replace("+psycopg", "")) as conn:
        return [row[0] for row in conn.execute(_KEPT)]


def test_kept_page_points_take_a_landed_run_without_a_page_read(api: Api) -> None:
    for i in range(12):
        _call(api, "/api/v1/results", _doc(i))
    page = _call(api, "/api/v1/series/batch?system=pages")
    assert [s["total"] for s in page["series"]] == [12, 12]
    assert [s.split(":")[0] for s in _stamps(api)] == ["12", "12"]
    _call(api, "/api/v1/results", _doc(12))
    deadline = time.monotonic() + refresh.QUIET_S + 15
    while time.monotonic() < deadline:
        counts = [s.split(":")[0] for s in _stamps(api)]
        if counts == ["13", "13"]:
            break
        time.sleep(0.5)
    assert counts == ["13", "13"], counts
    again = _call(api, "/api/v1/series/batch?system=pages")
    assert [s["total"] for s in again["series"]] == [13, 13]
