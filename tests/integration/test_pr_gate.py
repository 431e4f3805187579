"""A pull request decided on its own run against its base (issue 38): the real CLI and server,
a recording stand-in of the GitHub and GitLab APIs (tests/integration/forges.py).

Every case checks the one rule the CLI promises: exit 2 ⇔ check run `failure` (GitLab: commit
status `failed`).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from tests.integration.conftest import Api
from tests.integration.forges import Forge, serve
from tests.integration.test_forge_report import _github_env, _upload

TESTBED = "it-pr-box"
BASE_RUNS = 10


def _doc(tmp: Path, system: str, branch: str, key: str, samples: list[float]) -> Path:
    doc = {
        "schema": "benchdash/v1",
        "system": system,
        "run": {
            "branch": branch,
            "commit": key.ljust(40, "0"),
            "external_id": f"{system}-{key}",
            "testbed": TESTBED,
        },
        "results": [
            {
                "benchmark": "render",
                "metrics": [
                    {
                        "name": "time",
                        "unit": "ms",
                        "direction": "lower_is_better",
                        "samples": samples,
                    }
                ],
            }
        ],
    }
    path = tmp / f"{system}-{key}.json"
    path.write_text(json.dumps(doc))
    return path


def _samples(rng: random.Random, level: float, noise: float) -> list[float]:
    """5 samples around `level` with relative spread `noise` (never below a tenth of it)."""
    return [max(level * 0.1, level * (1 + rng.gauss(0, noise))) for _ in range(5)]


def _main(api: Api, tmp: Path, system: str, noise: float, rng: random.Random) -> None:
    for i in range(BASE_RUNS):
        done = _upload(api, _doc(tmp, system, "main", f"a{i:02d}", _samples(rng, 100.0, noise)))
        assert done.returncode == 0, done.stdout + done.stderr


def _pr_env(gh: Forge, tmp: Path, sha: str) -> dict[str, str]:
    return {**_github_env(gh, tmp, sha), "GITHUB_BASE_REF": "main", "GITHUB_HEAD_REF": "feature"}


def _pr_upload(
    api: Api, gh: Forge, tmp: Path, system: str, key: str, samples: list[float]
) -> tuple[Any, dict[str, Any]]:
    sha = key.ljust(40, "0")
    done = _upload(
        api,
        _doc(tmp, system, "feature", key, samples),
        "--report",
        "github",
        env=_pr_env(gh, tmp, sha),
    )
    assert "report to github failed" not in done.stderr, done.stderr
    checks = [c for c in gh.checks.values() if c["head_sha"] == sha]
    assert len(checks) == 1, gh.checks
    conclusion = checks[0]["conclusion"]
    assert (done.returncode == 2) == (conclusion == "failure"), (done.returncode, conclusion)
    assert done.returncode in (0, 2), done.stdout + done.stderr
    return done, checks[0]


def test_a_pr_15_percent_slower_fails_its_check_on_its_first_upload(
    api: Api, tmp_path: Path
) -> None:
    system, rng = "it-pr-slow", random.Random(38)
    _main(api, tmp_path, system, 0.004, rng)
    with serve("github", "gh-secret") as gh:
        done, check = _pr_upload(api, gh, tmp_path, system, "b01", _samples(rng, 115.0, 0.004))
        assert done.returncode == 2, done.stdout + done.stderr
        assert check["conclusion"] == "failure"
        assert "against main" in check["output"]["title"]
        body = next(iter(gh.comments.values()))["body"]
        assert "Compared with the last runs of `main`:" in body
        assert body.count(f"{api.url}/runs/") >= BASE_RUNS  # each base run named and linked
        assert "past the fail threshold" in body and "❌" in body
        assert "compared with main: runs" in done.stdout


def test_a_pr_2_percent_slower_in_20_percent_noise_is_neutral_with_the_reason(
    api: Api, tmp_path: Path
) -> None:
    system, rng = "it-pr-noisy", random.Random(7)
    _main(api, tmp_path, system, 0.2, rng)
    with serve("github", "gh-secret") as gh:
        done, check = _pr_upload(api, gh, tmp_path, system, "c01", _samples(rng, 102.0, 0.2))
        assert done.returncode == 0, done.stdout + done.stderr
        assert check["conclusion"] == "neutral"
        text = check["output"]["text"]
        assert "5 samples, noise " in text and "not enough to tell" in text, text
        assert "repeat the benchmark" in text
        assert "not enough to tell" in done.stdout  # the job log says it too


def test_a_clean_pr_succeeds(api: Api, tmp_path: Path) -> None:
    system, rng = "it-pr-clean", random.Random(3)
    _main(api, tmp_path, system, 0.004, rng)
    with serve("github", "gh-secret") as gh:
        done, check = _pr_upload(api, gh, tmp_path, system, "d01", _samples(rng, 100.0, 0.004))
        assert done.returncode == 0, done.stdout + done.stderr
        assert check["conclusion"] == "success"
        assert check["output"]["title"].startswith("no regression against main")


def _gitlab_env(gl: Forge, sha: str, mr: str | None) -> dict[str, str]:
    env = {
        "CI_API_V4_URL": gl.url,
        "CI_PROJECT_ID": "42",
        "CI_COMMIT_SHA": sha,
        "CI_COMMIT_REF_NAME": "feature",
        "BENCHDASH_GITLAB_TOKEN": "gl-secret",
        "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main",
    }
    if mr:
        env.update(
            {
                "CI_MERGE_REQUEST_IID": mr,
                "CI_MERGE_REQUEST_PROJECT_ID": "42",
                "CI_MERGE_REQUEST_SOURCE_PROJECT_ID": "42",
            }
        )
    return env


def test_gitlab_commit_statuses_beside_the_note_and_without_a_merge_request(
    api: Api, tmp_path: Path
) -> None:
    system, rng = "it-pr-gitlab", random.Random(11)
    _main(api, tmp_path, system, 0.004, rng)
    with serve("gitlab", "gl-secret") as gl:
        cases = [("e01", 115.0, "3"), ("e02", 100.0, None)]
        for key, level, mr in cases:
            sha = key.ljust(40, "0")
            done = _upload(
                api,
                _doc(tmp_path, system, "feature", key, _samples(rng, level, 0.004)),
                "--report",
                "gitlab",
                env=_gitlab_env(gl, sha, mr),
            )
            assert "report to gitlab failed" not in done.stderr, done.stderr
            mine = [s for s in gl.statuses if s["sha"] == sha]
            assert len(mine) == 1, gl.statuses
            assert (done.returncode == 2) == (mine[0]["state"] == "failed"), (done, mine)
        slow, clean = (
            next(s for s in gl.statuses if s["sha"] == k.ljust(40, "0")) for k, *_ in cases
        )
        assert slow["state"] == "failed" and clean["state"] == "success"
        assert slow["name"] == f"benchdash / {system}" and slow["ref"] == "feature"
        assert "against main" in slow["description"] and len(slow["description"]) <= 255
        assert slow["target_url"].startswith(f"{api.url}/runs/")
        assert len(gl.comments) == 1  # the note: only the merge request pipeline
        assert "Compared with the last runs of `main`" in next(iter(gl.comments.values()))["body"]
        assert len(gl.calls("POST", r"/api/v4/projects/42/statuses/\w+")) == 2
