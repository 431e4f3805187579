"""`benchdash_runner.driving` for real: a profile run to a checked document, and refusals."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from driving_demo import finish, start

from benchdash_runner import driving, environment


def test_a_profile_runs_to_a_checked_document(demo: Path) -> None:
    code, out = finish(start(demo, "ok"))
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0] == "##benchdash phase building"
    assert "compiling demo" not in lines  # a build's log is shown when it fails
    progress = [line for line in lines if line.startswith("##benchdash progress")]
    assert progress == [
        "##benchdash progress 1/3 alpha",
        "##benchdash progress 2/3 beta/1",
        "##benchdash progress 3/3 beta/2",
        "##benchdash progress 3/3 done",
    ]
    doc = json.loads((demo / "out" / "result.json").read_text())
    assert doc["system"] == "demo" and doc["run"]["profile"] == "quick"
    assert doc["run"]["trigger"] == os.environ.get("BENCHDASH_TRIGGER", "manual")
    assert doc["environment"]["compiler"] == "cpython" and doc["environment"]["cores"] >= 1
    assert [r["metrics"][0]["samples"] for r in doc["results"]] == [[1.0, 2.0]] * 3
    # the testbed is named (the host, unless BENCHDASH_TESTBED says), not left to a fingerprint
    assert doc["run"]["testbed"] == environment.testbed_name()


def test_benchmarks_select_names_and_groups(demo: Path) -> None:
    code, out = finish(start(demo, "ok", "--benchmarks", "beta"))
    assert code == 0, out
    doc = json.loads((demo / "out" / "result.json").read_text())
    assert [r["benchmark"] for r in doc["results"]] == ["beta/1", "beta/2"]
    assert "##benchdash progress 2/2 done" in out


def test_unknown_benchmarks_are_named(demo: Path) -> None:
    code, out = finish(start(demo, "ok", "--benchmarks", "alpha,gamma,beta/3"))
    assert code == 1
    assert "unknown benchmarks: gamma, beta/3" in out and "known: alpha, beta/1, beta/2" in out
    assert not (demo / "out" / "result.json").exists()


def test_select() -> None:
    names = ["a", "b/1", "b/2", "bb"]
    assert driving.select(names, None) == names
    assert driving.select(names, " b , a ") == ["a", "b/1", "b/2"]
    assert driving.select(names, "b/2") == ["b/2"]
    with pytest.raises(SystemExit, match="unknown benchmarks: b/"):
        driving.select(names, "b/")


def test_build_failure_exits_3_with_the_build_log(demo: Path) -> None:
    code, out = finish(start(demo, "broken"))
    assert code == driving.BUILD_FAILED == 3
    assert "compiling demo" in out and "build failed (exit 1)" in out
    assert "##benchdash phase running" not in out


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("undeclared", "alpha/lines: metric not declared in runner.toml"),
        (
            "wrong-unit",
            "alpha/ops: ms/higher_is_better but runner.toml says ops/s/higher_is_better",
        ),
    ],
)
def test_finish_refuses_what_the_manifest_does_not_declare(
    demo: Path, mode: str, message: str
) -> None:
    code, out = finish(start(demo, mode))
    assert code == 1 and message in out
    assert not (demo / "out" / "result.json").exists()
