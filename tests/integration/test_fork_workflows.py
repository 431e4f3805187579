"""The fork path (issue 38): integrations/github-fork holds a `pull_request` workflow that
benchmarks with no secrets and a `workflow_run` workflow that uploads its artifact with them.
Parsed as YAML, checked for what keeps secrets away from a fork's code, and part 2's upload
step run as Actions would run it against the real server and the stand-in GitHub API."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

import yaml

from tests.integration.conftest import CLIENT, ROOT, Api
from tests.integration.forges import serve
from tests.integration.test_ci_templates import _upload_flags

FORK = ROOT / "integrations" / "github-fork"
PART1, PART2 = FORK / "benchmarks.yml", FORK / "benchdash-report.yml"


def _load(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text())
    assert isinstance(data, dict), path
    return data


def _on(workflow: dict[str, Any]) -> Any:
    return workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true


def _steps(workflow: dict[str, Any]) -> list[dict[str, Any]]:
    (job,) = workflow["jobs"].values()
    steps = job["steps"]
    assert isinstance(steps, list)
    return steps


def test_part_one_benchmarks_the_fork_with_no_secrets() -> None:
    wf = _load(PART1)
    assert set(_on(wf)) == {"pull_request"}  # never pull_request_target: fork code, no secrets
    assert wf["permissions"] == {"contents": "read"}
    assert "secrets." not in PART1.read_text() and "vars." not in PART1.read_text()
    upload = next(s for s in _steps(wf) if str(s.get("uses", "")).startswith("actions/upload-art"))
    kept = upload["with"]["path"].split()
    assert set(kept) == {"bench.txt", "pr-number.txt"}
    assert upload["with"]["name"] == "benchdash-result"
    assert not any("benchdash upload" in str(s.get("run", "")) for s in _steps(wf))


def test_part_two_uploads_with_secrets_and_never_runs_the_fork_code() -> None:
    wf, part1 = _load(PART2), _load(PART1)
    on = _on(wf)
    assert set(on) == {"workflow_run"}
    assert on["workflow_run"] == {"workflows": [part1["name"]], "types": ["completed"]}
    assert wf["permissions"] == {
        "contents": "read",
        "actions": "read",
        "pull-requests": "write",
        "checks": "write",
    }
    (job,) = wf["jobs"].values()
    assert "github.event.workflow_run.event == 'pull_request'" in job["if"]
    assert "workflow_run.conclusion == 'success'" in job["if"]
    steps = _steps(wf)
    assert not any(str(s.get("uses", "")).startswith("actions/checkout") for s in steps)
    download = next(s for s in steps if str(s.get("uses", "")).startswith("actions/download-art"))
    assert download["with"]["name"] == "benchdash-result"
    assert download["with"]["run-id"] == "${{ github.event.workflow_run.id }}"
    for s in steps:  # values reach scripts through env only: no expression inside a script
        assert "${{" not in str(s.get("run", "")), s
    check = next(s for s in steps if s.get("id") == "pr")
    assert check["env"]["HEAD_SHA"] == "${{ github.event.workflow_run.head_sha }}"
    assert '[ "$head" = "$HEAD_SHA" ]' in check["run"]  # the PR must have the run's head
    upload = steps[-1]
    used = set(re.findall(r"(?<![\w-])--[a-z][a-z-]+", upload["run"]))
    assert used <= _upload_flags(), used - _upload_flags()
    assert {"--report", "--report-number", "--report-sha", "--branch", "--commit"} <= used
    assert upload["env"]["BENCHDASH_TOKEN"] == "${{ secrets.BENCHDASH_TOKEN }}"
    assert upload["env"]["HEAD_SHA"] == "${{ github.event.workflow_run.head_sha }}"


GOBENCH = """goos: linux
goarch: amd64
pkg: example.com/cachex
BenchmarkGet-8   	 1000000	      1000 ns/op
BenchmarkGet-8   	 1000000	      1004 ns/op
BenchmarkGet-8   	 1000000	       998 ns/op
PASS
"""


def test_part_two_upload_step_comments_and_checks_the_pull_request(
    api: Api, tmp_path: Path
) -> None:
    step = _steps(_load(PART2))[-1]
    (tmp_path / "result").mkdir()
    (tmp_path / "result" / "bench.txt").write_text(GOBENCH)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "benchdash").symlink_to(CLIENT)
    event = tmp_path / "event.json"
    event.write_text('{"workflow_run": {"id": 99}}')  # a workflow_run event: no pull_request
    with serve("github", "gh-secret") as gh:
        base = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "CI_"))}
        env = base | {
            "PATH": f"{bin_dir}:{os.environ['PATH']}",
            "BENCHDASH_URL": api.url,
            "BENCHDASH_TOKEN": api.token,
            "GITHUB_TOKEN": "gh-secret",
            "GITHUB_API_URL": gh.url,
            "GITHUB_REPOSITORY": "acme/widget",
            "GITHUB_EVENT_PATH": str(event),
            "GITHUB_SHA": "e" * 40,  # the default branch's commit: never the check's
            "PR_NUMBER": "12",
            "PR_BASE": "main",
            "HEAD_SHA": "d" * 40,
            "RUN_ID": "99",
            "RUN_ATTEMPT": "1",
        }
        done = subprocess.run(
            ["bash", "-c", step["run"]],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        (check,) = gh.checks.values()
        assert check["head_sha"] == "d" * 40 and check["conclusion"] == "success"
        (comment,) = gh.comments.values()
        assert comment["pr"] == 12 and "on `pr/12`" in comment["body"]
        assert "skipped" not in done.stderr
