import json
import subprocess
from pathlib import Path

from benchdash_runner import gitinfo


def test_github_push(tmp_path: Path) -> None:
    env = {
        "GITHUB_ACTIONS": "true",
        "GITHUB_SHA": "a" * 40,
        "GITHUB_REF_NAME": "main",
        "GITHUB_HEAD_REF": "",
        "GITHUB_RUN_ID": "77",
        "GITHUB_RUN_ATTEMPT": "2",
    }
    want = {"commit": "a" * 40, "branch": "main", "base_branch": None}
    assert gitinfo.detect(cwd=tmp_path, env=env) == want
    assert gitinfo.external_id(system="relay", paths=[], commit=None, env=env) == "gh-77-2-relay"


def test_github_pull_request_uses_head_branch_and_sha(tmp_path: Path) -> None:
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"head": {"sha": "b" * 40}}}))
    env = {
        "GITHUB_ACTIONS": "true",
        "GITHUB_SHA": "m" * 40,
        "GITHUB_REF_NAME": "12/merge",
        "GITHUB_HEAD_REF": "feature/x",
        "GITHUB_BASE_REF": "develop",
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(event),
    }
    want = {"commit": "b" * 40, "branch": "feature/x", "base_branch": "develop"}
    assert gitinfo.detect(cwd=tmp_path, env=env) == want


def test_gitlab_merge_request(tmp_path: Path) -> None:
    env = {
        "GITLAB_CI": "true",
        "CI_COMMIT_SHA": "c" * 40,
        "CI_COMMIT_REF_NAME": "main",
        "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME": "fix-1",
        "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "master",
        "CI_PIPELINE_ID": "5",
        "CI_JOB_ID": "9",
    }
    want = {"commit": "c" * 40, "branch": "fix-1", "base_branch": "master"}
    assert gitinfo.detect(cwd=tmp_path, env=env) == want
    assert gitinfo.external_id(system="cachex", paths=[], commit=None, env=env) == "gl-5-9-cachex"


def test_plain_git_and_content_hash(tmp_path: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q", "-b", "trunk")
    (tmp_path / "f.txt").write_text("1")
    git("add", "f.txt")
    git("-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "x")
    info = gitinfo.detect(cwd=tmp_path, env={})
    assert info["branch"] == "trunk" and len(info["commit"]) == 40
    a = gitinfo.external_id(system="s", paths=[tmp_path / "f.txt"], commit=info["commit"], env={})
    assert a.startswith(f"git-{info['commit'][:12]}-s-")
    assert a == gitinfo.external_id(
        system="s", paths=[tmp_path / "f.txt"], commit=info["commit"], env={}
    )
    (tmp_path / "f.txt").write_text("2")
    assert a != gitinfo.external_id(
        system="s", paths=[tmp_path / "f.txt"], commit=info["commit"], env={}
    )
    git("checkout", "-q", "--detach")
    assert gitinfo.detect(cwd=tmp_path, env={})["branch"] is None


def test_no_git_no_ci(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    want = {"commit": None, "branch": None, "base_branch": None}
    assert gitinfo.detect(cwd=tmp_path, env={}) == want
    assert gitinfo.external_id(system="s", paths=[tmp_path], commit=None, env={}).startswith(
        "local-s-"
    )
    assert gitinfo.in_ci({"CI": "true"}) and not gitinfo.in_ci({})
