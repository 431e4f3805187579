"""A run's build phase has its own time limit (issue 37 "Also"): a cold first build may take up
to the profile's `build_timeout_s` (default 30 min) without eating the benchmark's
`time_limit_s`, which counts only the rest of the driver's life. Real drivers (Python scripts)
run by the real `execute`; the API it reports to is a recording stand-in."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, cast

import pytest

from benchdash_runner.agent.api import Ack, AgentApi
from benchdash_runner.agent.execute import execute
from benchdash_runner.agent.manifest import BUILD_TIMEOUT_S, Manifest, ManifestError, load
from benchdash_runner.agent.supervisor import AgentSettings

DRIVER = """\
import json, sys, time
out = sys.argv[sys.argv.index("--out") + 1]
print("##benchdash phase building", flush=True)
time.sleep({build_s})
print("##benchdash phase running", flush=True)
time.sleep({bench_s})
open(out + "/result.json", "w").write(json.dumps({{"run": {{}}, "results": []}}))
"""


class Recorder:
    """What `execute` tells the API, answered as the API would."""

    def __init__(self) -> None:
        self.reports: list[dict[str, Any]] = []
        self.uploads: list[dict[str, Any]] = []

    def run(self, run_id: int) -> dict[str, Any]:
        return {"id": run_id, "status": "queued", "profile": "quick", "ref": "HEAD"}

    def report(self, run_id: int, **body: Any) -> Ack:
        self.reports.append(body)
        return Ack(status=str(body.get("status") or "running"), cancel_requested=False)

    def upload(self, document: dict[str, Any]) -> dict[str, Any]:
        self.uploads.append(document)
        return {"run": document["run"]}

    def messages(self) -> list[str]:
        return [str(r["message"]) for r in self.reports if r.get("message")]


def _run(
    tmp_path: Path, *, build_s: float, bench_s: float, profile: dict[str, Any]
) -> tuple[str, Recorder]:
    (tmp_path / "driver.py").write_text(DRIVER.format(build_s=build_s, bench_s=bench_s))
    manifest = Manifest(
        system="demo",
        command=[sys.executable, "driver.py"],
        profiles={"quick": profile},
        cron=None,
        cron_profile="quick",
        raw={},
    )
    settings = AgentSettings(
        repo=tmp_path, workdir=tmp_path / "work", host_id="h", name="h/1", heartbeat_s=0.5
    )
    api = Recorder()
    state = execute(7, api=cast(AgentApi, api), manifest=manifest, settings=settings)
    return state, api


def test_a_build_longer_than_the_benchmark_limit_but_within_its_own_succeeds(
    tmp_path: Path,
) -> None:
    profile = {"time_limit_s": 2, "build_timeout_s": 60}
    state, api = _run(tmp_path, build_s=3.0, bench_s=0.1, profile=profile)
    assert state == "completed", api.messages()
    assert [u["run"]["id"] for u in api.uploads] == [7]


def test_a_build_past_its_limit_is_timed_out_naming_the_build_phase(tmp_path: Path) -> None:
    profile = {"time_limit_s": 60, "build_timeout_s": 1}
    state, api = _run(tmp_path, build_s=60, bench_s=0, profile=profile)
    assert state == "timed_out"
    assert api.uploads == []
    message = api.messages()[-1]
    assert "build phase" in message and "build time limit of 1 s" in message, message


def test_the_benchmark_phase_keeps_the_profiles_time_limit(tmp_path: Path) -> None:
    profile = {"time_limit_s": 1, "build_timeout_s": 60}
    state, api = _run(tmp_path, build_s=0, bench_s=60, profile=profile)
    assert state == "timed_out"
    message = api.messages()[-1]
    assert "benchmark phase" in message and "time limit of 1 s" in message, message


def _manifest(tmp_path: Path, profile: str) -> Path:
    folder = tmp_path / "runners" / "demo"
    folder.mkdir(parents=True)
    (folder / "runner.toml").write_text(
        f'system = "demo"\n[driver]\ncommand = ["d.py"]\n[profiles.quick]\n{profile}\n'
    )
    return tmp_path


def test_the_manifest_sets_the_build_limit_per_profile(tmp_path: Path) -> None:
    assert load(_manifest(tmp_path, "build_timeout_s = 3600"), "demo").build_limit("quick") == 3600
    other = tmp_path / "other"
    assert (
        load(_manifest(other, "time_limit_s = 5"), "demo").build_limit("quick") == BUILD_TIMEOUT_S
    )


@pytest.mark.parametrize("bad", ["0", "-1", '"long"', "true"])
def test_a_bad_build_limit_is_refused_naming_it(tmp_path: Path, bad: str) -> None:
    with pytest.raises(ManifestError, match=r"\[profiles.quick\] build_timeout_s must be"):
        load(_manifest(tmp_path, f"build_timeout_s = {bad}"), "demo")
