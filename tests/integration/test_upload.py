"""`benchdash upload` of every format against the real API (issue 7 "Must show")."""

from __future__ import annotations

import json
import os
import re
import subprocess
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from benchdash.regression.floors import MIN_HISTORY
from tests.integration.conftest import CLIENT, ROOT, Api

DATA = ROOT / "runners" / "testdata"

# format → input files (each captured from the real tool; see runners/testdata/README.md)
CASES = {
    "benchdash": ["benchdash/uvhttp_quick.json"],
    "criterion": ["criterion/criterion"],
    "gobench": ["gobench/bench.txt"],
    "gbench": ["gbench/repetitions.json"],
    "pytest-benchmark": ["pytest-benchmark/benchmark.json"],
    "wrk": ["wrk/latency.txt"],
    "bmf": ["bmf/gobench.json"],
    "hyperfine": ["hyperfine/sleep.json"],
    "gab-smaller": ["gab/smaller.json"],
    "gab-bigger": ["gab/bigger.json"],
}


def _get(api: Api, path: str) -> Any:
    with urllib.request.urlopen(api.url + path, timeout=10) as r:
        return json.load(r)


def _run(api: Api, *args: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BENCHDASH_URL": api.url, "BENCHDASH_TOKEN": api.token}
    env.pop("GITHUB_ACTIONS", None)
    env.pop("GITLAB_CI", None)
    env.pop("GITHUB_STEP_SUMMARY", None)
    return subprocess.run([CLIENT, *args], env=env, capture_output=True, text=True, **kw)


def _metric_count(fmt: str, system: str, paths: list[str], tmp: Path) -> int:
    out = tmp / f"{system}.json"
    done = subprocess.run(
        [CLIENT, "convert", "--format", fmt, "--system", system, *paths, "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    doc = json.loads(out.read_text())
    return sum(len(r["metrics"]) for r in doc["results"])


@pytest.mark.parametrize("fmt", sorted(CASES))
def test_each_format_lands_and_is_idempotent(api: Api, fmt: str, tmp_path: Path) -> None:
    system = "uvhttp" if fmt == "benchdash" else f"it-{fmt}"  # a document names its system
    paths = [str(DATA / p) for p in CASES[fmt]]
    expected = _metric_count(fmt, system, paths, tmp_path)
    assert expected > 0
    args = [
        "upload",
        "--system",
        system,
        "--format",
        fmt,
        "--branch",
        "main",
        "--commit",
        "0123456789abcdef",
        "--external-id",
        f"it-{fmt}-1",
        *paths,
    ]
    # Other tests in the session may have stored runs of the same system (uvhttp): count
    # from what was there, and find the run by the id the CLI printed.
    before = _get(api, f"/api/v1/runs?system={system}")["total"]
    first = _run(api, *args, check=False)
    assert first.returncode == 0, first.stdout + first.stderr
    assert _get(api, f"/api/v1/runs?system={system}")["total"] == before + 1
    printed = re.search(r"\brun (\d+) \(", first.stdout)
    assert printed, first.stdout
    run = _get(api, f"/api/v1/runs/{printed.group(1)}")
    assert run["external_id"] == f"it-{fmt}-1"
    assert len(run["measurements"]) == expected
    again = _run(api, *args, check=False)
    assert again.returncode == 0, again.stdout + again.stderr
    assert _get(api, f"/api/v1/runs?system={system}")["total"] == before + 1
    assert len(_get(api, f"/api/v1/runs/{run['id']}")["measurements"]) == expected


def test_twelve_percent_worse_exits_2_and_names_the_series(api: Api, tmp_path: Path) -> None:
    source = (DATA / "gobench" / "bench.txt").read_text().splitlines()
    base = ["upload", "--system", "it-gate", "--format", "gobench", "--branch", "main"]
    # The detector judges nothing before it has seen MIN_HISTORY runs (the noise floor).
    for i in range(MIN_HISTORY):
        done = _run(
            api,
            *base,
            "--commit",
            f"{i:07x}",
            "--external-id",
            f"gate-{i}",
            str(DATA / "gobench" / "bench.txt"),
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
    slower = []
    for line in source:
        parts = line.split()
        if line.startswith("BenchmarkJoin/n=100") and "ns/op" in parts:
            k = parts.index("ns/op") - 1
            parts[k] = f"{float(parts[k]) * 1.12:.2f}"
            line = "\t".join(parts)
        slower.append(line)
    worse = tmp_path / "bench.txt"
    worse.write_text("\n".join(slower) + "\n")
    summary = tmp_path / "summary.md"
    done = _run(
        api,
        *base,
        "--commit",
        "badc0de",
        "--external-id",
        "gate-worse",
        "--summary",
        str(summary),
        str(worse),
        check=False,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    text = summary.read_text()
    assert "Join" in text and "fail" in text.lower()
    assert f"{api.url}/systems/it-gate?benchmark=Join" in text
