"""Secrets never reach benchmark code (issue 23, item 1): the environment of a running driver,
read from /proc/<pid>/environ while the real agent runs it, holds none of the agent's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.integration.agents import TERMINAL, agents, get, post, wait_for
from tests.integration.conftest import Api

PLANTED = {
    "BENCHDASH_ADMIN_PASSWORD": "planted-admin-password",
    "BENCHDASH_SECRET_KEY": "planted-session-signing-key",
    "BENCHDASH_AGENT_TOKEN": "bd_0123456789ab_plantedplantedplantedplanted",
    "AWS_SECRET_ACCESS_KEY": "planted-aws-secret",
    "GITHUB_TOKEN": "planted-github-token",
    "PGPASSWORD": "planted-pg-password",
    "MY_SERVICE_API_KEY": "planted-api-key",
}


def _tree(root: int) -> list[int]:
    """`root`'s descendants (pids), from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = [], [root]
    while frontier:
        pid = frontier.pop()
        kids = [child for child, parent in parents.items() if parent == pid]
        found += kids
        frontier += kids
    return found


def _environ(pid: int) -> dict[str, str] | None:
    try:
        raw = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:  # it ended meanwhile
        return None
    pairs = (item.decode(errors="replace").partition("=") for item in raw.split(b"\0") if item)
    return {name: value for name, _, value in pairs}


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def test_a_running_benchmark_sees_no_secret_of_the_agent(api: Api, tmp_path: Path) -> None:
    planted = {
        **PLANTED,
        "BENCHDASH_TOKEN": api.token,  # the agent's real credentials, in its environment too
        "DATABASE_URL": api.database_url,
        "BENCHDASH_URL": api.url,
        "BENCHDASH_SELFTEST_S": "1.5",  # long enough to catch the driver at work
    }
    with agents(api, tmp_path, env=planted) as (agent,):
        run = post(api, "/api/v1/runs", {"system": "selftest", "ref": "HEAD", "profile": "quick"})
        run_id = int(run["id"])
        wait_for(lambda: get(api, f"/api/v1/runs/{run_id}")["status"] == "running", 60, "running")
        seen: dict[int, dict[str, str]] = {}
        for pid in _tree(agent.pid):
            env = _environ(pid)
            if env is not None:
                seen[pid] = env
        drivers = [pid for pid in seen if "runners/selftest/driver.py" in _cmdline(pid)]
        assert drivers, f"no driver among the agent's children: {[_cmdline(p) for p in seen]}"
        for pid, env in seen.items():
            print(f"pid {pid} ({_cmdline(pid)[:60]}): {', '.join(sorted(env))}")
        secrets = set(planted) - {"BENCHDASH_SELFTEST_S"}
        values = {planted[name] for name in secrets}
        for pid, env in seen.items():
            leaked = sorted(set(env) & secrets)
            assert not leaked, f"pid {pid} ({_cmdline(pid)}) got {leaked}"
            by_value = sorted(name for name, value in env.items() if value in values)
            assert not by_value, f"pid {pid} got a secret's value under {by_value}"
        driver_env = seen[drivers[0]]
        assert driver_env["BENCHDASH_RUN_ID"] == str(run_id)
        assert driver_env["BENCHDASH_SELFTEST_S"] == "1.5"  # the manifest's pass_env
        assert {"PATH", "HOME"} <= set(driver_env)
        final = wait_for(lambda: _ended(api, run_id), 120, "the run to end")
    assert final["status"] == "completed", final.get("message")


def _ended(api: Api, run_id: int) -> dict[str, Any] | None:
    run: dict[str, Any] = get(api, f"/api/v1/runs/{run_id}")
    return run if run["status"] in TERMINAL else None
