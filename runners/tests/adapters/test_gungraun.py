from pathlib import Path

import pytest

from benchdash_runner import adapters
from benchdash_runner.adapters import AdapterError, gungraun


def test_first_run_path_id_and_args(testdata: Path) -> None:
    results = gungraun.parse([testdata / "gungraun/first_run.txt"])
    assert [(r["benchmark"], r["parameters"]) for r in results] == [
        ("small::small_group::bench_fibonacci", {"id": "short", "args": 10}),
        ("small::small_group::bench_fibonacci", {"id": "long", "args": 20}),
        ("small::small_group::bench_fnv1a", {"id": "bytes_64", "args": "vec! [7u8; 64]"}),
        ("small::small_group::bench_fnv1a", {"id": "bytes_4096", "args": "vec! [7u8; 4096]"}),
    ]
    m = {x["name"]: x for x in results[0]["metrics"]}
    assert list(m) == [
        "instructions",
        "l1_hits",
        "ll_hits",
        "ram_hits",
        "total_read_write",
        "estimated_cycles",
    ]
    assert m["instructions"] == {
        "name": "instructions",
        "unit": "instructions",
        "direction": "lower_is_better",
        "value": 1789.0,
    }
    assert (m["estimated_cycles"]["unit"], m["estimated_cycles"]["value"]) == ("cycles", 2664.0)
    assert (m["ram_hits"]["unit"], m["ram_hits"]["value"]) == ("count", 3.0)


def test_with_a_baseline_the_new_value_is_taken(testdata: Path) -> None:
    results = gungraun.parse([testdata / "gungraun/changed.txt"])
    m = {x["name"]: x for x in results[3]["metrics"]}
    # "Instructions:  24766|14014  (+76.7233%) [+1.76723x]"
    assert m["instructions"]["value"] == 24766.0
    assert m["ram_hits"]["value"] == 14.0


def test_two_files_become_samples_and_the_old_name_is_accepted(testdata: Path) -> None:
    files = [testdata / "gungraun/first_run.txt", testdata / "gungraun/changed.txt"]
    results = adapters.parse("iai-callgrind", files)
    m = {x["name"]: x for x in results[2]["metrics"]}
    assert m["instructions"]["samples"] == [340.0, 508.0]


def test_bad_count_named_with_line(testdata: Path, tmp_path: Path) -> None:
    text = (testdata / "gungraun/first_run.txt").read_text().replace("219908|", "2199o8|")
    bad = tmp_path / "g.txt"
    bad.write_text(text)
    with pytest.raises(AdapterError, match=r"g.txt:9: '2199o8' is not a number"):
        gungraun.parse([bad])


def test_not_gungraun(testdata: Path) -> None:
    with pytest.raises(AdapterError, match="no `module::group::function` benchmark headers"):
        gungraun.parse([testdata / "libtest/bench.txt"])
