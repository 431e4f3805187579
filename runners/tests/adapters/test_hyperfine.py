import json
from pathlib import Path

import pytest

from benchdash_runner.adapters import AdapterError, hyperfine


def test_times_become_samples_in_ms(testdata: Path) -> None:
    results = hyperfine.parse([testdata / "hyperfine/sleep.json"])
    assert [r["benchmark"] for r in results] == ["sleep 0.01", "sleep 0.02"]
    time, user, system = results[0]["metrics"]
    assert (time["name"], time["unit"], time["direction"]) == ("time", "ms", "lower_is_better")
    assert len(time["samples"]) == 10
    raw = json.loads((testdata / "hyperfine/sleep.json").read_text())["results"][0]
    assert time["samples"][0] == pytest.approx(raw["times"][0] * 1000)
    assert sum(time["samples"]) / 10 == pytest.approx(raw["mean"] * 1000)
    assert "value" not in time
    assert (user["name"], system["name"]) == ("user_time", "system_time")
    assert "samples" not in user


def test_parameter_scan_keeps_parameters(testdata: Path) -> None:
    results = hyperfine.parse([testdata / "hyperfine/parameter_scan.json"])
    assert [(r["benchmark"], r["parameters"]) for r in results] == [
        ("sleep 0.010", {"ms": 10}),
        ("sleep 0.020", {"ms": 20}),
    ]
    assert len(results[1]["metrics"][0]["samples"]) == 5


def test_bad_time_named(testdata: Path, tmp_path: Path) -> None:
    data = json.loads((testdata / "hyperfine/sleep.json").read_text())
    data["results"][1]["times"][3] = None
    f = tmp_path / "h.json"
    f.write_text(json.dumps(data))
    with pytest.raises(AdapterError, match=r"results\[1\] \(sleep 0.02\).times\[3\]"):
        hyperfine.parse([f])


def test_not_hyperfine(testdata: Path) -> None:
    with pytest.raises(AdapterError, match="'results' list"):
        hyperfine.parse([testdata / "gab/bigger.json"])
