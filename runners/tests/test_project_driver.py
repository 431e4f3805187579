"""The generic driver runs a project's benchdash.toml: build, then the bench command once per
repetition, its output read by the named adapter and pooled, the contract's phases, progress
and exit codes (3 for a failed build). Real subprocesses in a temporary project."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = """\
import json, os, sys
n = int(os.environ.get("TINY_N", "4"))
if os.environ.get("BENCHDASH_REPETITION") == os.environ.get("TINY_FAIL_AT"):
    sys.exit(7)
times = [0.010 + 0.001 * i for i in range(n)]
os.makedirs("out", exist_ok=True)
entry = {"command": "loop", "times": times, "user": 0.002}
with open("out/hyperfine.json", "w") as f:
    json.dump({"results": [entry, {"command": "other", "times": times}]}, f)
print("bench saw", os.environ["BENCHDASH_PROFILE"], os.environ["BENCHDASH_REPETITION"])
"""

MANIFEST = """\
name = "Tiny"
[profiles.quick]
build = "echo building tiny && test ! -e broken"
bench = ["python3", "bench.py"]
output = "out/hyperfine.json"
format = "{fmt}"
repetitions = 3

[[metrics]]
name = "user_time"
unit = "{unit}"
direction = "higher_is_better"
"""


def project(tmp: Path, fmt: str = "hyperfine", unit: str = "ms") -> Path:
    root = tmp / "tiny"
    root.mkdir()
    (root / "bench.py").write_text(BENCH)
    (root / "benchdash.toml").write_text(MANIFEST.format(fmt=fmt, unit=unit))
    return root


def drive(root: Path, *extra: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    cmd = [sys.executable, "-m", "benchdash_runner.project_driver", "--system", "tiny"]
    cmd += ["--profile", "quick", "--out", str(root / "o"), *extra]
    base = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "TINY_N": "4"}
    done = subprocess.run(
        cmd, cwd=root, env={**base, **(env or {})}, capture_output=True, text=True, timeout=60
    )
    return done.returncode, done.stdout + done.stderr


def test_three_repetitions_are_pooled_into_one_document(tmp_path: Path) -> None:
    root = project(tmp_path, fmt="auto")
    code, out = drive(root)
    assert code == 0, out
    lines = out.splitlines()
    marks = [x for x in lines if x.startswith("##benchdash")]
    assert marks == [
        "##benchdash phase building",
        "##benchdash phase running",
        "##benchdash progress 1/3 repetition 1",
        "##benchdash progress 2/3 repetition 2",
        "##benchdash progress 3/3 repetition 3",
        "##benchdash progress 3/3 done",
    ]
    assert "building tiny" in out and "bench saw quick 3" in out
    assert "hyperfine.json: format hyperfine" in out  # auto told it from the content
    doc = json.loads((root / "o" / "result.json").read_text())
    assert doc["system"] == "tiny" and doc["run"]["profile"] == "quick"
    loop = next(r for r in doc["results"] if r["benchmark"] == "loop")
    metrics = {m["name"]: m for m in loop["metrics"]}
    assert len(metrics["time"]["samples"]) == 12  # 4 per repetition
    assert metrics["time"]["direction"] == "lower_is_better"  # the adapter's
    assert metrics["user_time"]["direction"] == "higher_is_better"  # the manifest's
    assert doc["configuration"]["format"] == "hyperfine"


def test_benchmarks_narrow_the_results_and_an_unknown_one_is_named(tmp_path: Path) -> None:
    root = project(tmp_path)
    code, out = drive(root, "--benchmarks", "other")
    assert code == 0, out
    doc = json.loads((root / "o" / "result.json").read_text())
    assert [r["benchmark"] for r in doc["results"]] == ["other"]
    code, out = drive(root, "--benchmarks", "nope")
    assert code == 1 and "unknown benchmarks: nope (known: loop, other)" in out


@pytest.mark.parametrize(
    ("setup", "env", "code", "says"),
    [
        ("broken", {}, 3, "build failed (exit 1)"),
        ("", {"TINY_FAIL_AT": "2"}, 1, "python3 bench.py failed (exit 7)"),
        ("", {"TINY_N": "0"}, 1, "cannot read the output as hyperfine"),
    ],
)
def test_failures_exit_with_the_contracts_codes(
    tmp_path: Path, setup: str, env: dict[str, str], code: int, says: str
) -> None:
    root = project(tmp_path)
    if setup:
        (root / setup).write_text("")
    got, out = drive(root, env=env)
    assert (got, says in out) == (code, True), out
    assert not (root / "o" / "result.json").exists()


def test_a_unit_other_than_the_declared_one_and_a_bad_manifest_are_named(tmp_path: Path) -> None:
    root = project(tmp_path, unit="s")
    code, out = drive(root)
    assert code == 1 and "loop/user_time: the output's unit is 'ms', benchdash.toml's" in out
    (root / "benchdash.toml").write_text(MANIFEST.format(fmt="nope", unit="ms"))
    code, out = drive(root)
    assert code == 1 and "profiles.quick.format: unknown format 'nope'" in out
