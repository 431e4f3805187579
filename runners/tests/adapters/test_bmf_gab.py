import json
from pathlib import Path

import pytest

from benchdash_runner.adapters import AdapterError, bmf, gab


def test_bmf_built_in_and_custom_measures(testdata: Path) -> None:
    results = bmf.parse([testdata / "bmf/gobench.json"])
    assert [r["benchmark"] for r in results] == ["Join/n=10", "Join/n=100", "SortCopy", "Digest"]
    m = {x["name"]: x for x in results[0]["metrics"]}
    assert (m["latency"]["unit"], m["latency"]["direction"], m["latency"]["value"]) == (
        "ns",
        "lower_is_better",
        371.58,
    )
    assert (m["throughput"]["unit"], m["throughput"]["direction"]) == ("ops/s", "higher_is_better")
    assert (m["allocs"]["unit"], m["allocs"]["direction"], m["allocs"]["value"]) == (
        "allocs",
        "lower_is_better",
        2.0,
    )
    assert all("samples" not in x for x in results[0]["metrics"])


def test_bmf_bad_value_named(tmp_path: Path) -> None:
    f = tmp_path / "bmf.json"
    f.write_text(json.dumps({"a": {"latency": {"value": "12"}}}))
    with pytest.raises(AdapterError, match=r"bmf.json: 'a'.'latency'.value must be a number"):
        bmf.parse([f])
    f.write_text('{"a": {"latency": {"value": NaN}}}')
    with pytest.raises(AdapterError, match="not finite"):
        bmf.parse([f])


def test_gab_bigger_and_smaller(testdata: Path) -> None:
    bigger = gab.parse_bigger([testdata / "gab/bigger.json"])
    assert [(r["benchmark"], r["metrics"][0]["name"], r["metrics"][0]["unit"]) for r in bigger] == [
        ("SortCopy", "items_per_s", "items/s"),
        ("Digest", "mb_per_s", "MB/s"),
    ]
    assert {r["metrics"][0]["direction"] for r in bigger} == {"higher_is_better"}
    smaller = gab.parse_smaller([testdata / "gab/smaller.json"])
    first = smaller[0]["metrics"][0]
    assert (smaller[0]["benchmark"], first["name"], first["unit"]) == ("sleep 0.01", "time", "ms")
    assert first["direction"] == "lower_is_better"
    assert first["value"] == 11.6228


def test_gab_missing_value_named(tmp_path: Path) -> None:
    f = tmp_path / "g.json"
    f.write_text(json.dumps([{"name": "x", "unit": "ms"}]))
    with pytest.raises(AdapterError, match=r"g.json: \[0\] \(x\).value must be a number"):
        gab.parse_smaller([f])
    f.write_text(json.dumps({"name": "x"}))
    with pytest.raises(AdapterError, match="non-empty list"):
        gab.parse_bigger([f])
