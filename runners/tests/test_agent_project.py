"""An agent runs a project with its manifest in its own repository: with no runners/<slug>/ of its
own, it reads benchdash.toml from the source's default branch at its start, and each run follows
its commit's benchdash.toml through the generic driver (a bad one fails the run at once, naming
the field). The benchmark never sees the agent's credentials. Real git (a bare repository in a
temporary directory), the real `execute` and driver; the API is a recording stand-in."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any, cast

import pytest
from test_agent_build_limit import Recorder

from benchdash_runner.agent import project
from benchdash_runner.agent.api import AgentApi
from benchdash_runner.agent.execute import execute
from benchdash_runner.agent.manifest import ManifestError
from benchdash_runner.agent.supervisor import AgentSettings

GIT = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t"}
GIT |= {"GIT_COMMITTER_EMAIL": "t@x", "PATH": "/usr/bin:/bin"}
BENCH = """\
import json, os
names = sorted(os.environ)
with open("out.json", "w") as f:
    json.dump({"results": [{"command": "loop", "times": [0.01, 0.011, 0.012]}]}, f)
with open(os.environ["BENCHDASH_OUT"] + "/env.json", "w") as f:
    json.dump(dict(os.environ), f)
"""
TOML = """\
name = "Tiny"
[profiles.quick]
bench = "python3 bench.py"
output = "out.json"
format = "hyperfine"
repetitions = 2
time_limit_s = 60
"""


def _git(cwd: Path, *args: str) -> str:
    out = subprocess.run(["git", *args], cwd=cwd, env=GIT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def _commit(work: Path, toml: str) -> str:
    (work / "bench.py").write_text(BENCH)
    (work / "benchdash.toml").write_text(toml)
    _git(work, "add", ".")
    _git(work, "commit", "-qm", "bench")
    _git(work, "push", "-q", "origin", "HEAD:main")
    return _git(work, "rev-parse", "HEAD")


class ProjectApi(Recorder):
    def __init__(self, url: str, ref: str) -> None:
        super().__init__()
        self.url, self.ref = url, ref

    def source(self, system: str) -> dict[str, Any]:
        return {"slug": system, "source_url": self.url, "default_branch": "main"}

    def run(self, run_id: int) -> dict[str, Any]:
        return {**super().run(run_id), "ref": self.ref}


@pytest.fixture
def upstream(tmp_path: Path) -> tuple[str, Path]:
    bare = tmp_path / "tiny.git"
    _git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    work = tmp_path / "work"
    _git(tmp_path, "clone", "-q", str(bare), str(work))
    _git(work, "checkout", "-q", "-b", "main")
    return f"file://{bare}", work


def test_a_commits_benchdash_toml_is_run_through_the_generic_driver(
    upstream: tuple[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, work = upstream
    sha = _commit(work, TOML)
    monkeypatch.setenv("BENCHDASH_TOKEN", "bd_0123456789ab_secret")
    api = ProjectApi(url, sha)
    agent = tmp_path / "agent"
    manifest, source = project.at_start(cast(AgentApi, api), tmp_path, "tiny", agent)
    assert (manifest.project, source) == (True, url)
    assert manifest.raw["profiles"]["quick"]["repetitions"] == 2
    settings = AgentSettings(repo=tmp_path, workdir=agent, host_id="h", name="h/1")
    state = execute(
        7, api=cast(AgentApi, api), manifest=manifest, settings=settings, source_url=url
    )
    assert state == "completed", api.messages()
    (doc,) = api.uploads
    assert doc["system"] == "tiny" and doc["run"]["commit"] == sha and doc["run"]["id"] == 7
    assert len(doc["results"][0]["metrics"][0]["samples"]) == 6
    seen = (agent / "out" / "run-7" / "env.json").read_text()
    assert "BENCHDASH_TOKEN" not in seen and "bd_0123456789ab" not in seen
    lines = [line for r in api.reports for line in r.get("lines", [])]
    assert any("benchdash_runner.project_driver" in line for line in lines)


def test_a_bad_manifest_fails_the_run_at_once_naming_the_field(
    upstream: tuple[str, Path], tmp_path: Path
) -> None:
    url, work = upstream
    _commit(work, TOML)
    api = ProjectApi(url, "main")
    agent = tmp_path / "agent"
    manifest, _ = project.at_start(cast(AgentApi, api), tmp_path, "tiny", agent)
    api.ref = _commit(work, TOML.replace("time_limit_s = 60", "time_limit_s = 0"))
    settings = AgentSettings(repo=tmp_path, workdir=agent, host_id="h", name="h/1")
    state = execute(
        8, api=cast(AgentApi, api), manifest=manifest, settings=settings, source_url=url
    )
    assert state == "failed" and not api.uploads
    (message,) = api.messages()
    assert message.startswith(f"benchdash.toml at {api.ref[:12]}: profiles.quick.time_limit_s")
    assert not (agent / "out" / "run-8").exists()  # no driver was started


def test_at_start_names_what_is_missing(upstream: tuple[str, Path], tmp_path: Path) -> None:
    url, work = upstream
    api = ProjectApi(url, "main")
    (work / "README").write_text("no manifest here")
    _git(work, "add", ".")
    _git(work, "commit", "-qm", "readme")
    _git(work, "push", "-q", "origin", "HEAD:main")
    with pytest.raises(ManifestError, match=r"main \(\w{12}\): benchdash.toml: not found"):
        project.at_start(cast(AgentApi, api), tmp_path, "tiny", tmp_path / "a1")
    api.url = ""
    with pytest.raises(ManifestError, match="has no source: set it"):
        project.at_start(cast(AgentApi, api), tmp_path, "tiny", tmp_path / "a2")
    _commit(work, TOML.replace('format = "hyperfine"', 'format = "nope"'))
    with pytest.raises(ManifestError, match=r"profiles\.quick\.format: unknown format"):
        project.at_start(cast(AgentApi, api), tmp_path, "tiny", tmp_path / "a3", url)
    (tmp_path / "runners" / "tiny").mkdir(parents=True)  # a runner.toml of its own wins
    (tmp_path / "runners" / "tiny" / "runner.toml").write_text(
        'system = "tiny"\n[driver]\ncommand = ["d.py"]\n[profiles.quick]\n'
    )
    manifest, source = project.at_start(cast(AgentApi, api), tmp_path, "tiny", tmp_path / "a4")
    assert (manifest.project, manifest.command, source) == (False, ["d.py"], None)
