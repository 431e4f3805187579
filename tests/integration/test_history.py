"""History in and out against the real API (issue 41, items 3 and 4): `benchdash import` of a
github-action-benchmark data.js of 1,000+ entries and of an asv results tree, an export ->
import round trip into a second system that reproduces every series point for point, and a bad
file that stores nothing."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.integration.conftest import CLIENT, Api
from tests.integration.history_files import asv_tree, data_js, sha

POINT = ("commit", "t", "value", "min", "max", "stddev", "n")


def _get(api: Api, path: str, **query: Any) -> Any:
    url = f"{api.url}{path}?{urllib.parse.urlencode(query)}"
    with urllib.request.urlopen(url, timeout=30) as r:
        body = r.read()
    return json.loads(body) if r.headers.get_content_type() == "application/json" else body


def _client(api: Api, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ["PATH"], "BENCHDASH_URL": api.url, "BENCHDASH_TOKEN": api.token}
    return subprocess.run([CLIENT, *args], env=env, capture_output=True, text=True, timeout=900)


def _points(api: Api, system: str, benchmark: str, metric: str, **more: Any) -> list[Any]:
    found = _get(api, "/api/v1/series", system=system, benchmark=benchmark, metric=metric,
                 max_points=20_000, **more)  # fmt: skip
    assert found["total"] == len(found["points"])
    return [tuple(p[k] for k in POINT) for p in found["points"]]


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    with path.open() as f:
        for line in f:
            yield json.loads(line)


@pytest.fixture(scope="module")
def gab_system(api: Api, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[Any], Path]:
    """A data.js of 1,000 cargo entries (+50 custom) imported into system it-gab-history."""
    path = tmp_path_factory.mktemp("gab") / "data.js"
    cargo = data_js(path, 1000, step_at=700, step=1.3)
    done = _client(api, "import", str(path), "--system", "it-gab-history")
    assert done.returncode == 0, done.stderr
    assert "gab, 1050 runs" in done.stderr and "1050 new, 0 already stored" in done.stderr
    assert "importing: 50 % (525 of 1050 runs)" in done.stderr  # the progress, without a TTY
    return "it-gab-history", cargo, path


def test_a_data_js_of_1000_entries_lands_point_for_point(api: Api, gab_system: Any) -> None:
    system, cargo, _ = gab_system
    for bench in cargo[0]["benches"]:
        points = _points(api, system, bench["name"], "time")
        assert len(points) == 1000
        mine = [b for e in cargo for b in e["benches"] if b["name"] == bench["name"]]
        assert [p[2] for p in points] == [b["value"] for b in mine]
        assert [p[0] for p in points] == [e["commit"]["id"] for e in cargo]
        assert [p[1][:19] for p in points][:2] == ["2024-01-01T00:00:00", "2024-01-01T01:00:00"]
    custom = _points(api, system, "Digest", "mb_per_s")
    assert len(custom) == 50
    # the step the history holds opened its alert as if live, naming the commit that made it
    alerts = _get(api, "/api/v1/alerts", system=system)
    steps = [a for a in alerts if a["benchmark"].endswith("bench_sort_1000")]
    assert len(steps) == 1 and steps[0]["status"] == "open", alerts
    assert steps[0]["commit"] == sha(700) and steps[0]["last_good_commit"] == sha(699)


def test_importing_again_stores_nothing_twice(api: Api, gab_system: Any) -> None:
    system, cargo, path = gab_system
    again = _client(api, "import", str(path), "--system", system, "--format", "gab")
    assert again.returncode == 0, again.stderr
    assert "0 new, 1050 already stored" in again.stderr
    assert len(_points(api, system, cargo[0]["benches"][0]["name"], "time")) == 1000


def test_historical_alerts_are_acknowledged_and_quiet(api: Api, tmp_path: Path) -> None:
    path = tmp_path / "data.js"
    data_js(path, 60, step_at=40, step=1.4, salt="h")
    done = _client(api, "import", str(path), "--system", "it-gab-past", "--historical")
    assert done.returncode == 0, done.stderr
    (alert,) = [a for a in _get(api, "/api/v1/alerts", system="it-gab-past")]
    assert alert["status"] == "acknowledged" and alert["commit"] == sha(40, "h")
    assert alert["acknowledged_by"] == "history import"


def test_an_asv_results_tree_lands_in_commit_order(api: Api, tmp_path: Path) -> None:
    made = asv_tree(tmp_path, 12)
    done = _client(api, "import", str(tmp_path), "--system", "it-asv-history")
    assert done.returncode == 0, done.stderr
    assert "asv, 12 runs" in done.stderr
    params = json.dumps({"kind": "list", "size": 10}, separators=(",", ":"))
    points = _points(
        api, "it-asv-history", "bench_small.TimeSort.time_sorted", "time", params=params
    )
    assert [p[0] for p in points] == [c for c, _ in made]  # by date, not by file name
    assert all(p[6] == 10 for p in points)  # asv's ten recorded samples each
    assert points[-1][2] == pytest.approx(points[0][2] * 1.11, rel=1e-6)


def test_export_then_import_reproduces_every_series(
    api: Api, gab_system: Any, tmp_path: Path
) -> None:
    asv_tree(tmp_path, 6)
    assert _client(api, "import", str(tmp_path), "--system", "it-asv-trip").returncode == 0
    for source, copy in ((gab_system[0], "it-gab-copy"), ("it-asv-trip", "it-asv-copy")):
        out = tmp_path / f"{source}.jsonl"
        done = _client(api, "export", "--system", source, "-o", str(out))
        assert done.returncode == 0, done.stderr
        lines = list(_lines(out))
        assert lines[0]["kind"] == "export" and lines[0]["format"] == "benchdash-export/1"
        runs = [line for line in lines if line["kind"] == "run"]
        assert lines[-1] == {"kind": "end", "runs": len(runs), "changes": 0,
                             "alerts": sum(line["kind"] == "alert" for line in lines)}  # fmt: skip
        assert [r["id"] for r in runs] == sorted(r["id"] for r in runs)  # ingest order
        back = _client(api, "import", str(out), "--system", copy)
        assert back.returncode == 0, back.stderr
        assert f"{len(runs)} new" in back.stderr
        series = {
            (v["benchmark"], v["params_key"], v["metric"]) for r in runs for v in r["verdicts"]
        }
        for bench, params, metric in sorted(series):
            mine = _points(api, source, bench, metric, params=params)
            theirs = _points(api, copy, bench, metric, params=params)
            assert mine == theirs and mine, (bench, params, metric)
        again = tmp_path / f"{copy}.jsonl"
        assert _client(api, "export", "--system", copy, "-o", str(again)).returncode == 0
        docs = [line["document"] for line in _lines(again) if line["kind"] == "run"]
        assert docs == [{**r["document"], "system": copy} for r in runs]


def test_a_series_as_csv(api: Api, gab_system: Any) -> None:
    system, cargo, _ = gab_system
    name = cargo[0]["benches"][0]["name"]
    body = _get(api, "/api/v1/series/csv", system=system, benchmark=name, metric="time")
    rows = list(csv.DictReader(io.StringIO(body.decode())))
    assert len(rows) == 1000
    assert [float(r["value"]) for r in rows] == [e["benches"][0]["value"] for e in cargo]
    assert rows[0]["commit"] == sha(0) and rows[0]["started_at"].startswith("2024-01-01T00:00")


def test_a_bad_file_is_named_and_stores_nothing(api: Api, tmp_path: Path) -> None:
    path = tmp_path / "data.js"
    data_js(path, 30, step_at=99, step=1.0)
    text = path.read_text()
    data = json.loads(text.removeprefix("window.BENCHMARK_DATA = "))
    data["entries"]["Rust Benchmark"][17]["benches"][1]["value"] = "fast"
    path.write_text("window.BENCHMARK_DATA = " + json.dumps(data))
    done = _client(api, "import", str(path), "--system", "it-gab-bad")
    assert done.returncode == 1
    assert "entries['Rust Benchmark'][17].benches[1]" in done.stderr and "'fast'" in done.stderr
    assert "nothing was sent" in done.stderr
    with pytest.raises(urllib.error.HTTPError) as e:
        _get(api, "/api/v1/systems/it-gab-bad")
    assert e.value.code == 404
    cut = tmp_path / "cut.jsonl"
    cut.write_text('{"kind":"export","format":"benchdash-export/1","runs":1}\n')
    done = _client(api, "import", str(cut), "--system", "it-gab-bad")
    assert done.returncode == 1 and "cut short" in done.stderr
