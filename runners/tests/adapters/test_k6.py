import json
from pathlib import Path

import pytest

from benchdash_runner.adapters import AdapterError, k6


def _metrics(result: dict) -> dict:
    return {m["name"]: m for m in result["metrics"]}


def test_trends_counters_and_rates(testdata: Path) -> None:
    main, sub = k6.parse([testdata / "k6/index.json"])
    assert (main["benchmark"], main["parameters"]) == ("index", {"vus_max": 4})
    m = _metrics(main)
    raw = json.loads((testdata / "k6/index.json").read_text())["metrics"]
    p95 = m["http_req_duration_p95"]
    assert (p95["unit"], p95["direction"], p95["samples"]) == (
        "ms",
        "lower_is_better",
        [raw["http_req_duration"]["p(95)"]],
    )
    assert m["http_req_duration_med"]["samples"] == [1.98033]
    assert "http_req_duration_thresholds" not in m
    assert (m["http_reqs_per_s"]["unit"], m["http_reqs_per_s"]["direction"]) == (
        "1/s",
        "higher_is_better",
    )
    assert m["data_received_per_s"]["unit"] == "bytes/s"
    assert (m["checks"]["unit"], m["checks"]["direction"], m["checks"]["samples"]) == (
        "ratio",
        "higher_is_better",
        [1.0],
    )
    assert m["http_req_failed"]["direction"] == "lower_is_better"
    assert not any(name.startswith("vus") for name in m)  # gauges describe the load
    # the submetric http_req_duration{expected_response:true} is its own result
    assert sub["parameters"] == {"vus_max": 4, "expected_response": "true"}
    assert set(_metrics(sub)) == {
        f"http_req_duration_{s}" for s in ("avg", "min", "med", "max", "p90", "p95")
    }


def test_custom_metrics_and_failures(testdata: Path) -> None:
    main = k6.parse([testdata / "k6/groups.json"])[0]
    assert main["parameters"] == {}  # iterations-only run: no vus_max in the export
    m = _metrics(main)
    assert m["checks"]["samples"] == [0.5] and m["http_req_failed"]["samples"] == [0.5]
    errors = m["not_found_errors_per_s"]
    assert (errors["unit"], errors["direction"]) == ("1/s", "lower_is_better")
    size = m["body_size_avg"]
    assert (size["unit"], size["samples"]) == ("value", [3648.0])
    assert m["group_duration_max"]["unit"] == "ms"


def test_bad_value_named(testdata: Path, tmp_path: Path) -> None:
    raw = json.loads((testdata / "k6/index.json").read_text())
    raw["metrics"]["http_reqs"]["rate"] = None
    bad = tmp_path / "k.json"
    bad.write_text(json.dumps(raw))
    with pytest.raises(AdapterError, match=r"k.json: metrics\['http_reqs'\].rate must be a number"):
        k6.parse([bad])
