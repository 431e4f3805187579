"""`benchdash run` from a shell (issue 37, "CI asks the fleet"): the tiny project of
tests/integration/tinyproject.py is registered by its URL, a real agent runs it. Each commit is
queued with `benchdash run --ref <sha> --wait`, which follows the run to its end: exit 0 on a
clean commit, 2 on the commit that makes the loop 30 % slower (the table names it). A ref the
repository lacks is refused before anything is queued; a SHA it lacks fails on the agent and
the command says so with exit 1. Without --wait the run's URL is printed and the command exits 0.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from benchdash.regression.floors import MIN_HISTORY
from tests.integration.agents import agents, get
from tests.integration.conftest import CLIENT, Api
from tests.integration.test_project import completed, runs_of
from tests.integration.tinyproject import make_project, set_source

SECRET = "tiny-fleet-secret-0123456789abcdef"


def bench_run(api: Api, token: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BENCHDASH_URL": api.url, "BENCHDASH_TOKEN": token}
    return subprocess.run(
        [CLIENT, "run", *args], env=env, capture_output=True, text=True, timeout=300
    )


def test_benchdash_run_waits_and_exits_0_clean_2_slowed_1_failed(api: Api, tmp_path: Path) -> None:
    slug = "tinyfleet"
    project = make_project(tmp_path)
    set_source(api, slug, project.url, SECRET)
    trigger = api.cli("token", "create", "--scope", "trigger", "--system", slug)
    with agents(api, tmp_path, system=slug, host="it-tinyfleet"):
        # A typo: refused by the API (422) before anything is queued, no branch made.
        typo = bench_run(api, trigger, "--system", slug, "--ref", "mian", "--wait")
        assert typo.returncode == 1, typo
        assert "'mian'" in typo.stderr and "422" in typo.stderr, typo.stderr
        assert runs_of(api, slug) == []
        branches = {b["name"] for b in get(api, f"/api/v1/systems/{slug}")["branches"]}
        assert "mian" not in branches
        # Without --wait: the URL on stdout, exit 0 at once.
        sha = project.commit("notes 0", note="0")
        project.push()
        queued = bench_run(api, trigger, "--system", slug, "--ref", sha, "--branch", "main")
        assert queued.returncode == 0, queued
        run_id = int(queued.stdout.strip().rsplit("/", 1)[-1])
        assert queued.stdout.strip() == f"{api.url}/runs/{run_id}"
        assert completed(api, run_id)["commit"] == sha
        # With --wait: follows the run to its end; clean commits exit 0.
        for i in range(1, MIN_HISTORY + 1):
            sha = project.commit(f"notes {i}", note=str(i))
            project.push()
            clean = bench_run(api, trigger, "--system", slug, "--ref", sha, "--branch", "main",
                              "--profile", "quick", "--wait")  # fmt: skip
            assert clean.returncode == 0, (clean.stdout, clean.stderr)
            assert "run completed" in clean.stderr and "progress:" in clean.stderr, clean.stderr
            assert "loop: 12 samples" in clean.stderr  # the agent's log, streamed
            assert "completed: " in clean.stdout, clean.stdout
        slow_sha = project.commit("loop: sleep 30 % longer", factor=1.3)
        project.push()
        slow = bench_run(
            api, trigger, "--system", slug, "--ref", slow_sha, "--branch", "main", "--wait"
        )
        print(slow.stdout)
        assert slow.returncode == 2, (slow.stdout, slow.stderr)
        assert "fail" in slow.stdout and "loop" in slow.stdout
        assert "at or above --fail-on fail" in slow.stdout
        never = bench_run(api, trigger, "--system", slug, "--ref", slow_sha, "--branch", "main",
                          "--wait", "--fail-on", "never", "--quiet-log")  # fmt: skip
        assert never.returncode == 0, (never.stdout, never.stderr)
        assert "loop: 12 samples" not in never.stderr
        # A SHA the repository does not have: queued (SHAs are not looked up), the agent fails it.
        gone = "0123456789abcdef0123456789abcdef01234567"
        failed = bench_run(api, trigger, "--system", slug, "--ref", gone, "--wait")
        assert failed.returncode == 1, failed
        assert "failed" in failed.stderr and gone in failed.stderr, failed.stderr
