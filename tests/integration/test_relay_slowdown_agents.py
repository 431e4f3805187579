"""An injected slowdown in one relay function, through real agents, named first on its alert.

A copy of this repository gets one commit that turns relay's `inject-slowdown` feature on
(`hexcodec::decode_into` does ~10 % more work). A real relay agent runs the `instructions`
profile (Callgrind through Gungraun) at the commit before it; the series' history is that run's
measurements and profile uploaded again (instruction counts are exact: the same code gives the
same counts, CV 0 in systems/relay/README.md), because the detector judges nothing before
MIN_HISTORY runs and ten Callgrind runs would cost minutes for no new information. Then the agent
runs the slowed commit; the detector suspects the step, the agent runs the two re-runs that
confirm it, and the alert's root cause (the differential profile of its last good and first bad
runs) names `decode_into` first.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from benchdash.regression.floors import MIN_HISTORY
from benchdash_runner import document
from tests.integration.agents import agents, events, get, post, wait_for
from tests.integration.conftest import ROOT, Api

BENCH = "decryption_uncached/10000"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "it",
    "GIT_AUTHOR_EMAIL": "it@example.invalid",
    "GIT_COMMITTER_NAME": "it",
    "GIT_COMMITTER_EMAIL": "it@example.invalid",
    "PATH": "/usr/bin:/bin",
}


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], env=GIT_ENV, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def _repo_with_slowdown(tmp: Path) -> tuple[Path, str, str]:
    """A clone of this repository's HEAD plus one commit that enables the slowdown."""
    repo = tmp / "repo"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(repo)], env=GIT_ENV, check=True)
    good = _git(repo, "rev-parse", "HEAD")
    cargo = repo / "systems" / "relay" / "Cargo.toml"
    text = cargo.read_text()
    assert "\ninject-slowdown = []\n" in text
    cargo.write_text(text.replace("\ninject-slowdown = []\n", "\ninject-slowdown = []\ndefault = ["
                                  "\"inject-slowdown\"]\n"))  # fmt: skip
    _git(repo, "commit", "-qam", "hexcodec: check some digits twice")
    return repo, good, _git(repo, "rev-parse", "HEAD")


def _run(api: Api, ref: str) -> dict[str, Any]:
    body = {"system": "relay", "ref": ref, "profile": "instructions", "benchmarks": [BENCH]}
    run = post(api, "/api/v1/runs", body)
    stream = events(api, run["id"], timeout=1500)
    states = [d["status"] for k, d in stream if k == "state"]
    assert states and states[-1] == "completed", stream[-5:]
    detail: dict[str, Any] = get(api, f"/api/v1/runs/{run['id']}")
    return detail


def _folded(api: Api, run_id: int) -> dict[str, Any]:
    profiles = get(api, f"/api/v1/runs/{run_id}/profiles")
    assert len(profiles) == 1, profiles
    with urllib.request.urlopen(
        f"{api.url}/api/v1/profiles/{profiles[0]['id']}?format=folded"
    ) as r:
        stacks = r.read().decode()
    p = profiles[0]
    return {"kind": p["kind"], "unit": p["unit"], "metric": p["metric"], "stacks": stacks}


def _history(api: Api, good: dict[str, Any], profile: dict[str, Any]) -> None:
    """MIN_HISTORY uploads of the good run's counts and profile, at its commit and testbed."""
    metrics = [
        {"name": m["metric"], "unit": m["unit"], "direction": m["direction"], "value": m["value"]}
        for m in good["measurements"]
    ]
    first = good["measurements"][0]
    result = {"benchmark": first["benchmark"], "parameters": first["parameters"]}
    result |= {"metrics": metrics, "profile": {**profile, "format": "folded"}}
    for i in range(MIN_HISTORY):
        run = {"commit": good["commit"], "branch": good["branch"], "testbed": good["testbed"]}
        run |= {"trigger": "ci", "profile": "instructions", "external_id": f"it-slow-hist-{i}"}
        doc = document.build(system="relay", run=run, results=[result])
        req = urllib.request.Request(
            f"{api.url}/api/v1/results",
            data=json.dumps(doc).encode(),
            method="POST",
            headers={"Authorization": f"Bearer {api.token}", "content-type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=30) as r:
            assert r.status in (200, 201)


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_the_slowed_function_is_named_first_on_the_alert(api: Api, tmp_path: Path) -> None:
    repo, good_sha, bad_sha = _repo_with_slowdown(tmp_path)
    # The agent shares this checkout's relay build folder: dependencies built once, not per test.
    env = {"CARGO_TARGET_DIR": str(ROOT / "systems" / "relay" / "target")}
    with agents(api, tmp_path, system="relay", host="it-relay-slow", repo=repo, env=env):
        good = _run(api, good_sha)
        assert {m["metric"] for m in good["measurements"]} == {"instructions", "estimated_cycles"}
        _history(api, good, _folded(api, good["id"]))
        bad = _run(api, bad_sha)
        slowed = next(m for m in bad["measurements"] if m["metric"] == "instructions")
        before = next(m for m in good["measurements"] if m["metric"] == "instructions")
        change = 100 * (slowed["value"] - before["value"]) / before["value"]
        print(
            f"{BENCH}: {before['value']:.0f} → {slowed['value']:.0f} instructions ({change:+.1f} %)"
        )
        assert change > 5, change

        def alert() -> dict[str, Any] | None:
            found = [
                a
                for a in get(api, "/api/v1/alerts?system=relay")
                if a["metric"] == "instructions" and a["run_id"] == bad["id"] and a["root_cause"]
            ]
            return found[0] if found else None

        opened = wait_for(alert, 1500, "the confirmed alert with its root cause", every=2)
    cause = opened["root_cause"]
    print(f"alert {opened['id']} ({opened['confirmed_by']}): {cause['summary']}")
    assert opened["commit"] == bad_sha and opened["last_good_commit"] == good_sha
    assert opened["level"] == "fail" and opened["confirmed_by"] == "re-runs"
    assert cause["kind"] == "instructions"
    assert cause["functions"][0]["name"].endswith("hexcodec::decode_into"), cause["functions"][:3]
    assert "decode_into" in cause["summary"].split(",")[0]
