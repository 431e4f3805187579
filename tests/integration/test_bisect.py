"""Bisection on the runner fleet (issue 29), through real agents (benchdash-runner processes) on
a test repository of 16 commits whose commit k (random, printed) makes a tiny benchmark slower.

- A confirmed alert over the whole range (ten runs of commit 0, then commit 15 and its
  re-runs) starts a bisection by itself, which names exactly k in at most 5 steps; so does the
  alert.
- A midpoint that does not build is skipped, and k is still found.
- A regression inside the noise answers "cannot bisect" within log2 n + 2 steps.
"""

from __future__ import annotations

import math
import random
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from tests.integration.agents import TERMINAL, get, post, wait_for
from tests.integration.bisectrepo import COMMITS, Repo, agents, make_repo
from tests.integration.conftest import Api

CANDIDATES = COMMITS - 1  # commits 1..15: commit 0 is the good end


def queue(api: Api, repo: Repo, commit: int) -> int:
    """Queue a quick run of one commit of the repository."""
    body = {"system": repo.system, "ref": repo.shas[commit], "profile": "quick", "branch": "main"}
    return int(post(api, "/api/v1/runs", body)["id"])


def completed(api: Api, run_id: int, timeout: float = 120) -> dict[str, Any]:
    """The run once it ended; it must have completed."""
    wait_for(lambda: get(api, f"/api/v1/runs/{run_id}")["status"] in TERMINAL, timeout, "a run")
    run: dict[str, Any] = get(api, f"/api/v1/runs/{run_id}")
    assert run["status"] == "completed", run
    return run


def ended(api: Api, bisection_id: int, timeout: float = 300) -> dict[str, Any]:
    """The bisection once it left `running`."""
    path = f"/api/v1/bisections/{bisection_id}"
    wait_for(lambda: get(api, path)["state"] != "running", timeout, "the bisection", every=0.5)
    found: dict[str, Any] = get(api, path)
    return found


def from_runs(api: Api, repo: Repo) -> dict[str, Any]:
    """Measure both ends, then bisect between their runs."""
    good, bad = queue(api, repo, 0), queue(api, repo, COMMITS - 1)
    completed(api, good), completed(api, bad)
    body = {"good_run_id": good, "bad_run_id": bad, "benchmark": "work", "metric": "time_ms"}
    started: dict[str, Any] = post(api, "/api/v1/bisections", body)
    assert started["state"] == "running" and started["steps"] == []
    return started


def _started(run: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(run["started_at"])


def say(name: str, k: int, result: dict[str, Any], seconds: float) -> None:
    verdicts = [f"{s['commit'][:7]}:{s['verdict']}" for s in result["steps"]]
    print(
        f"\n{name}: k={k} state={result['state']} steps={len(result['steps'])} "
        f"({', '.join(verdicts)}) in {seconds:.1f} s; {result['message']}"
    )


def test_a_confirmed_alert_bisects_to_exactly_k(api: Api, tmp_path: Path) -> None:
    k = random.randint(1, CANDIDATES)
    repo = make_repo(tmp_path / "repo", "bisect-alert", k, slowdown=1.3, noise=0.02)
    with agents(api, repo, tmp_path):
        history = [queue(api, repo, 0) for _ in range(10)]
        for run_id in history:
            completed(api, run_id)
        bad = queue(api, repo, COMMITS - 1)
        completed(api, bad)
        t0 = time.monotonic()
        alert = wait_for(
            lambda: [
                a for a in get(api, "/api/v1/alerts?system=bisect-alert") if a["run_id"] == bad
            ],
            180,
            "the alert confirmed by re-runs",
        )[0]
        # Two agents run the history side by side: the last good point is the history run
        # that started last, whichever was queued last.
        starts = {r: _started(get(api, f"/api/v1/runs/{r}")) for r in history}
        assert alert["last_good_run_id"] == max(history, key=lambda r: (starts[r], r))
        bisections = wait_for(
            lambda: get(api, f"/api/v1/alerts/{alert['id']}/bisections"), 30, "its bisection"
        )
        result = ended(api, bisections[0]["id"])
        seconds = time.monotonic() - t0
    say("alert", k, result, seconds)
    assert result["state"] == "found", result
    assert result["culprit"]["sha"] == repo.shas[k]
    assert result["culprit"]["subject"] == f"change {k}: make work slower"
    assert result["culprit"]["author"].startswith(f"Dev {k} ")
    assert len(result["commits"]) == CANDIDATES
    assert 1 <= len(result["steps"]) <= 5
    assert all(s["verdict"] in ("good", "bad") for s in result["steps"])
    named = [a for a in get(api, "/api/v1/alerts?system=bisect-alert") if a["id"] == alert["id"]]
    assert named[0]["first_bad_commit"]["sha"] == repo.shas[k]
    steps = [get(api, f"/api/v1/runs/{s['run_id']}") for s in result["steps"]]
    assert {r["trigger"] for r in steps} == {"bisect"}
    assert all(r["requested_benchmarks"] == ["work"] for r in steps)


def test_a_midpoint_that_does_not_build_is_skipped(api: Api, tmp_path: Path) -> None:
    broken = CANDIDATES // 2  # commit 7: the first midpoint of commits 1..15
    k = random.choice([c for c in range(1, COMMITS) if c not in (broken, broken + 1)])
    repo = make_repo(tmp_path / "repo", "bisect-broken", k, slowdown=1.3, noise=0.02, broken=broken)
    with agents(api, repo, tmp_path):
        t0 = time.monotonic()
        result = ended(api, from_runs(api, repo)["id"])
        seconds = time.monotonic() - t0
    say("broken build", k, result, seconds)
    assert result["state"] == "found", result
    assert result["culprit"]["sha"] == repo.shas[k]
    assert result["skipped"] == [repo.shas[broken]]
    assert result["steps"][0]["commit"] == repo.shas[broken]
    assert result["steps"][0]["verdict"] == "skipped"
    assert "skipped (build failed)" in result["message"]
    assert len(result["steps"]) <= 6


def test_a_regression_inside_the_noise_cannot_be_bisected(api: Api, tmp_path: Path) -> None:
    k = random.randint(1, CANDIDATES)
    repo = make_repo(tmp_path / "repo", "bisect-noise", k, slowdown=1.03, noise=0.5)
    with agents(api, repo, tmp_path):
        t0 = time.monotonic()
        result = ended(api, from_runs(api, repo)["id"])
        seconds = time.monotonic() - t0
    say("noise", k, result, seconds)
    assert result["state"] == "cannot_bisect", result
    assert result["message"].startswith("cannot bisect: ")
    assert "median" in result["message"] or "told apart" in result["message"]
    assert result["culprit"] is None
    assert 1 <= len(result["steps"]) <= math.log2(CANDIDATES) + 2
    assert result["steps"][-1]["verdict"] == "ambiguous"
    assert result["steps"][-1]["evidence"]["p_good"] is not None
