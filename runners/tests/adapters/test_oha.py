import json
from pathlib import Path

import pytest

from benchdash_runner.adapters import AdapterError, oha


def test_seconds_become_ms_named_after_the_file(testdata: Path) -> None:
    (result,) = oha.parse([testdata / "oha/index.json"])
    assert (result["benchmark"], result["parameters"]) == ("index", {})
    m = {x["name"]: x for x in result["metrics"]}
    raw = json.loads((testdata / "oha/index.json").read_text())
    assert m["requests_per_second"]["samples"] == [raw["summary"]["requestsPerSec"]]
    assert m["requests_per_second"]["direction"] == "higher_is_better"
    assert m["body_bytes_per_second"]["unit"] == "bytes/s"
    assert m["latency_avg_ms"]["samples"] == [pytest.approx(14.83998723)]
    assert m["latency_p50_ms"]["samples"] == [pytest.approx(6.016967)]
    assert m["latency_p99_9_ms"]["samples"] == [pytest.approx(1232.401477)]
    assert (m["latency_p99_ms"]["unit"], m["latency_p99_ms"]["direction"]) == (
        "ms",
        "lower_is_better",
    )
    assert m["non_2xx_responses"]["samples"] == [0.0] and m["errors"]["samples"] == [0.0]


def test_404s_counted_although_oha_calls_them_successes(testdata: Path) -> None:
    raw = json.loads((testdata / "oha/missing.json").read_text())
    assert raw["summary"]["successRate"] == 1.0
    (result,) = oha.parse([testdata / "oha/missing.json"])
    m = {x["name"]: x for x in result["metrics"]}
    assert m["non_2xx_responses"]["samples"] == [500.0]


def test_same_named_files_become_samples(testdata: Path, tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    copy = tmp_path / "b" / "index.json"
    copy.write_text((testdata / "oha/missing.json").read_text())
    (result,) = oha.parse([testdata / "oha/index.json", copy])
    rps = {x["name"]: x for x in result["metrics"]}["requests_per_second"]
    assert len(rps["samples"]) == 2


def test_bad_value_named(testdata: Path, tmp_path: Path) -> None:
    raw = json.loads((testdata / "oha/index.json").read_text())
    raw["latencyPercentiles"]["p90"] = "slow"
    bad = tmp_path / "o.json"
    bad.write_text(json.dumps(raw))
    with pytest.raises(AdapterError, match=r"o.json: latencyPercentiles.p90 must be a number"):
        oha.parse([bad])
