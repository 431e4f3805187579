"""The real agent against the real API (issue 3 "Must show")."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from datetime import datetime
from pathlib import Path

from tests.integration.agents import TERMINAL, agents, events, get, post, wait_for
from tests.integration.conftest import Api


def _trigger(api: Api, **body: object) -> int:
    run = post(
        api, "/api/v1/runs", {"system": "selftest", "ref": "HEAD", "profile": "quick", **body}
    )
    assert run["status"] == "queued"
    return int(run["id"])


def _status(api: Api, run_id: int) -> str:
    return str(get(api, f"/api/v1/runs/{run_id}")["status"])


def test_trigger_runs_to_completion_with_progress(api: Api, tmp_path: Path) -> None:
    with agents(api, tmp_path):
        run_id = _trigger(api)
        stream = events(api, run_id)
    states = [d["status"] for k, d in stream if k == "state"]
    assert states == ["queued", "building", "running", "uploading", "completed"], states
    progress = [d for k, d in stream if k == "progress"]
    assert len(progress) >= 3 and progress[-1]["percent"] == 100
    assert [p["scenario"] for p in progress[:3]] == ["sort", "hash", "json"]
    logs = [line for k, d in stream if k == "log" for line in d["lines"]]
    assert any("sort repetition 1" in line for line in logs)
    run = get(api, f"/api/v1/runs/{run_id}")
    assert run["status"] == "completed" and len(run["measurements"]) == 3
    assert {m["benchmark"] for m in run["measurements"]} == {"sort", "hash", "json"}
    assert all(m["n"] == 3 and m["level"] for m in run["measurements"])


def test_cancel_mid_run_stops_within_5_seconds(api: Api, tmp_path: Path) -> None:
    with agents(api, tmp_path, env={"BENCHDASH_SELFTEST_S": "2"}):
        run_id = _trigger(api)
        wait_for(
            lambda: (
                (get(api, f"/api/v1/runs/{run_id}").get("progress") or {}).get("done", -1) >= 0
                and _status(api, run_id) == "running"
            ),
            60,
            "the run to be running",
        )
        t0 = time.monotonic()
        post(api, f"/api/v1/runs/{run_id}/cancel")
        wait_for(lambda: _status(api, run_id) == "cancelled", 10, "cancelled", every=0.1)
        took = time.monotonic() - t0
        print(f"cancel took {took:.2f} s")
        assert took <= 5.0
        run = get(api, f"/api/v1/runs/{run_id}")
        assert run["measurements"] == []
        left = subprocess.run(
            ["pgrep", "-f", str(tmp_path / "work-selftest-0" / "src")], capture_output=True
        )
        assert left.stdout == b"", "the driver's process group is gone"


def test_killed_agent_is_failed_by_the_reaper(api: Api, tmp_path: Path) -> None:
    with agents(api, tmp_path, env={"BENCHDASH_SELFTEST_S": "5"}) as procs:
        run_id = _trigger(api)
        wait_for(lambda: _status(api, run_id) == "running", 60, "running")
        os.kill(procs[0].pid, signal.SIGKILL)
        t0 = time.monotonic()
        wait_for(lambda: _status(api, run_id) == "failed", 90, "the reaper", every=1.0)
        print(f"reaped {time.monotonic() - t0:.0f} s after kill -9")
        assert "heartbeats" in get(api, f"/api/v1/runs/{run_id}")["message"]


def test_two_runs_on_one_host_do_not_overlap(api: Api, tmp_path: Path) -> None:
    with agents(api, tmp_path, count=2):
        ids = [_trigger(api), _trigger(api)]
        for run_id in ids:
            wait_for(lambda r=run_id: _status(api, r) in TERMINAL, 120, f"run {run_id}")
        spans = []
        for run_id in ids:
            stream = events(api, run_id)
            at = {d["status"]: datetime.fromisoformat(d["at"]) for k, d in stream if k == "state"}
            assert at.keys() >= {"building", "completed"}, at
            spans.append((at["building"], at["completed"]))
    (_, a1), (b0, _) = sorted(spans)
    assert a1 <= b0, f"runs overlapped: {spans}"
    logs = [(tmp_path / f"agent-selftest-{i}.log").read_text() for i in range(2)]
    waited = [log for log in logs if "waiting: host it-host is busy with run" in log]
    assert waited, "an agent asked while the host was busy and was told to wait"


def test_build_failure_keeps_the_log(api: Api, tmp_path: Path) -> None:
    with agents(api, tmp_path, env={"BENCHDASH_SELFTEST_FAIL_BUILD": "1"}):
        run_id = _trigger(api)
        stream = events(api, run_id)
    run = get(api, f"/api/v1/runs/{run_id}")
    assert run["status"] == "failed" and "build failed" in run["message"]
    logs = [line for k, d in stream if k == "log" for line in d["lines"]]
    assert any("failed on purpose" in line for line in logs)


def test_unknown_ref_fails_naming_it(api: Api, tmp_path: Path) -> None:
    with agents(api, tmp_path):
        run_id = _trigger(api, ref="no-such-branch-xyz")
        wait_for(lambda: _status(api, run_id) in TERMINAL, 60, "the run to end")
    run = get(api, f"/api/v1/runs/{run_id}")
    assert run["status"] == "failed" and "no-such-branch-xyz" in run["message"]


def test_time_limit_gives_timed_out(api: Api, tmp_path: Path) -> None:
    with agents(api, tmp_path, env={"BENCHDASH_SELFTEST_S": "1"}):
        run_id = _trigger(api, profile="full")  # selftest's full profile allows 3 s
        wait_for(lambda: _status(api, run_id) in TERMINAL, 60, "the run to end")
    run = get(api, f"/api/v1/runs/{run_id}")
    assert run["status"] == "timed_out" and "time limit of 3 s" in run["message"]
    assert run["measurements"] == []
