"""`benchdash upload --report`: pull request comments, checks and merge request notes (issue 26).

Real uploads to the real API (conftest's server) produce the verdicts; local stand-ins of the
GitHub and GitLab REST APIs (tests/integration/forges.py) receive the report.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from benchdash.regression.floors import MIN_HISTORY
from tests.integration.conftest import CLIENT, Api
from tests.integration.forges import Forge, serve

TESTBED = "it-forge-box"
SPREAD = (-0.004, -0.002, 0.0, 0.002, 0.004)


def _doc(tmp: Path, system: str, branch: str, i: int, value: float) -> Path:
    doc = {
        "schema": "benchdash/v1",
        "system": system,
        "run": {
            "branch": branch,
            "commit": f"{i:040x}",
            "external_id": f"{system}-{i}",
            "testbed": TESTBED,
        },
        "results": [
            {
                "benchmark": "parse",
                "parameters": {"size": 64},
                "metrics": [
                    {
                        "name": "throughput",
                        "unit": "req/s",
                        "direction": "higher_is_better",
                        "samples": [value * (1 + d) for d in SPREAD],
                    }
                ],
            }
        ],
    }
    path = tmp / f"{system}-{i}.json"
    path.write_text(json.dumps(doc))
    return path


def _upload(api: Api, doc: Path, *extra: str, env: dict[str, str] | None = None) -> Any:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GITLAB", "CI_"))}
    full = {**base, "BENCHDASH_URL": api.url, "BENCHDASH_TOKEN": api.token, **(env or {})}
    return subprocess.run(
        [CLIENT, "upload", "--format", "benchdash", *extra, str(doc)],
        env=full,
        capture_output=True,
        text=True,
        check=False,
    )


def _history(api: Api, tmp: Path, system: str, branch: str) -> None:
    for i in range(MIN_HISTORY):
        done = _upload(api, _doc(tmp, system, branch, i, 1000.0))
        assert done.returncode == 0, done.stdout + done.stderr


def _github_env(gh: Forge, tmp: Path, sha: str, head_repo: str = "acme/widget") -> dict[str, str]:
    event = {
        "number": 7,
        "pull_request": {
            "number": 7,
            "head": {"sha": sha, "repo": {"full_name": head_repo}},
            "base": {"repo": {"full_name": "acme/widget"}},
        },
    }
    path = tmp / f"event-{sha}.json"
    path.write_text(json.dumps(event))
    return {
        "GITHUB_TOKEN": "gh-secret",
        "GITHUB_REPOSITORY": "acme/widget",
        "GITHUB_EVENT_PATH": str(path),
        "GITHUB_SHA": "f" * 40,  # the merge commit: the check goes on the PR head instead
        "GITHUB_API_URL": gh.url,
    }


def test_github_comment_updated_in_place_and_check_fails_on_confirmed(
    api: Api, tmp_path: Path
) -> None:
    system, branch = "it-forge-gh", "feature/fast-parse"
    _history(api, tmp_path, system, branch)
    with serve("github", "gh-secret") as gh:
        conclusions, codes = [], []
        # One steady run, then a throughput 30 % lower that holds: a fail verdict on its first
        # run (exit 2, and the check fails with it), confirmed (an alert opens) once it lasts.
        values = [1000.0] + [700.0] * 5
        for i, value in enumerate(values, start=MIN_HISTORY):
            doc = _doc(tmp_path, system, branch, i, value)
            env = _github_env(gh, tmp_path, f"{i:040x}")
            done = _upload(api, doc, "--report", "github", env=env)
            assert "report to github failed" not in done.stderr, done.stderr
            codes.append(done.returncode)
            assert len(gh.comments) == 1, gh.comments  # never a second comment
            run = [c for c in gh.checks.values() if c["head_sha"] == f"{i:040x}"]
            assert len(run) == 1, gh.checks
            conclusions.append(run[0]["conclusion"])
            if i == MIN_HISTORY:
                assert len(gh.calls("POST", r"/repos/acme/widget/issues/7/comments")) == 1
                assert "no regression" in next(iter(gh.comments.values()))["body"]
            if "Confirmed steps open" in next(iter(gh.comments.values()))["body"]:
                break  # the step held: an alert confirms it
        assert len(codes) >= 3, codes  # one worse run never confirms
        assert codes[:2] == [0, 2], codes
        assert conclusions[:2] == ["success", "failure"], conclusions
        for code, conclusion in zip(codes, conclusions, strict=True):  # always the same decision
            assert (code == 2) == (conclusion == "failure"), (codes, conclusions)
        assert len(gh.calls("POST", r"/repos/acme/widget/issues/7/comments")) == 1
        patched = gh.calls("PATCH", r"/repos/acme/widget/issues/comments/\d+")
        assert len(patched) == len(conclusions) - 1
        body = next(iter(gh.comments.values()))["body"]
        assert body.startswith(f"<!-- benchdash-report system={system} -->")
        assert "-30.0 % · worse" in body  # throughput fell: shown in its own direction
        assert "+30.0 %" not in body  # never the internal "positive is worse" number
        assert "Confirmed steps open on this branch" in body and "10.0 %" in body
        assert f"{api.url}/systems/{system}?benchmark=parse" in body
        assert f"{api.url}/compare?system={system}&head=" in body
        assert "confirmed" in body and ("❌" in body) == (conclusions[-1] == "failure")
        # The same run reported again (a re-run of the job) edits its check, adds none.
        again = _upload(api, doc, "--report", "github", env=_github_env(gh, tmp_path, f"{i:040x}"))
        assert again.returncode == codes[-1], again.stderr  # the stored run: same verdicts
        again_check = [c for c in gh.checks.values() if c["head_sha"] == f"{i:040x}"]
        assert len(again_check) == 1 and again_check[0]["conclusion"] == conclusions[-1]
        assert len(gh.comments) == 1


def test_gitlab_note_updated_in_place(api: Api, tmp_path: Path) -> None:
    system, branch = "it-forge-gl", "mr-branch"
    _history(api, tmp_path, system, branch)
    with serve("gitlab", "gl-secret") as gl:
        env = {
            "CI_API_V4_URL": gl.url,
            "CI_PROJECT_ID": "42",
            "CI_MERGE_REQUEST_PROJECT_ID": "42",
            "CI_MERGE_REQUEST_SOURCE_PROJECT_ID": "42",
            "CI_MERGE_REQUEST_IID": "3",
            "BENCHDASH_GITLAB_TOKEN": "gl-secret",
        }
        for i, value in enumerate((1000.0, 700.0), start=MIN_HISTORY):
            done = _upload(
                api, _doc(tmp_path, system, branch, i, value), "--report", "gitlab", env=env
            )
            assert done.returncode == (0 if value == 1000.0 else 2), done.stderr
            assert "report to gitlab failed" not in done.stderr, done.stderr
            assert len(gl.comments) == 1, gl.comments
        assert len(gl.calls("POST", r"/api/v4/projects/42/merge_requests/3/notes")) == 1
        assert len(gl.calls("PUT", r"/api/v4/projects/42/merge_requests/3/notes/\d+")) == 1
        body = next(iter(gl.comments.values()))["body"]
        assert "-30.0 % · worse" in body and "suspected" in body


def test_fork_without_secrets_is_skipped(api: Api, tmp_path: Path) -> None:
    with serve("github", "gh-secret") as gh:
        env = {**_github_env(gh, tmp_path, "a" * 40, head_repo="stranger/widget")}
        env["BENCHDASH_TOKEN"] = ""
        doc = _doc(tmp_path, "it-forge-fork", "main", 0, 1.0)
        done = _upload(api, doc, "--report", "github", env=env)
        assert done.returncode == 0, done.stderr
        assert "fork stranger/widget" in done.stderr and "skipped" in done.stderr
        assert gh.requests == []


def test_forge_error_is_said_and_keeps_the_upload_exit_code(api: Api, tmp_path: Path) -> None:
    system, branch = "it-forge-err", "main"
    _history(api, tmp_path, system, branch)
    with serve("github", "gh-secret") as gh:
        env = {**_github_env(gh, tmp_path, "b" * 40), "GITHUB_TOKEN": "revoked"}
        done = _upload(
            api, _doc(tmp_path, system, branch, 99, 600.0), "--report", "github", env=env
        )
        assert done.returncode == 2, done.stdout + done.stderr  # the fail gate, not masked
        assert "report to github failed: GitHub API said 401" in done.stderr
        assert "Bad credentials" in done.stderr and "$GITHUB_TOKEN" in done.stderr
        assert gh.comments == {} and gh.checks == {}
