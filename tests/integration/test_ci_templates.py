"""The GitHub Action and the GitLab CI template: they parse, use only flags the CLI has, and
their upload scripts, run as the CI would run them, report to the stand-in forges."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import yaml

from benchdash.regression.floors import MIN_HISTORY
from benchdash_runner.cli import _build_parser
from tests.integration.conftest import CLIENT, ROOT, Api
from tests.integration.forges import serve
from tests.integration.test_forge_report import _doc, _github_env, _history

ACTION = ROOT / "integrations" / "github-action" / "action.yml"
GITLAB = ROOT / "integrations" / "gitlab" / "benchdash.gitlab-ci.yml"


def _action() -> dict[str, Any]:
    data = yaml.safe_load(ACTION.read_text())
    assert isinstance(data, dict)
    return data


def _gitlab_script() -> str:
    data = yaml.safe_load(GITLAB.read_text())
    script = data[".benchdash-upload"]["script"]
    assert isinstance(script, list) and len(script) == 1
    return str(script[0])


def _upload_flags() -> set[str]:
    parser = _build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {s for a in sub.choices["upload"]._actions for s in a.option_strings}


def test_templates_parse_and_use_only_known_upload_flags() -> None:
    action = _action()
    assert action["runs"]["using"] == "composite"
    steps = action["runs"]["steps"]
    assert all(s["shell"] == "bash" for s in steps)
    upload = steps[-1]["run"]
    scripts = {"action": upload, "gitlab": _gitlab_script()}
    known = _upload_flags()
    for name, script in scripts.items():
        cli_lines = [ln for ln in script.splitlines() if "args" in ln or "set --" in ln]
        used = set(re.findall(r"(?<![\w-])--[a-z][a-z-]+", "\n".join(cli_lines)))
        assert {"--format", "--fail-on", "--report"} <= used, (name, used)
        assert used <= known, (name, used - known)
    assert "benchdash-venv/bin/benchdash" in upload and "upload" in upload
    inputs = set(action["inputs"])
    assert set(re.findall(r"inputs\.([\w-]+)", ACTION.read_text())) <= inputs


def _bin(tmp: Path) -> Path:
    venv = tmp / "benchdash-venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "benchdash").symlink_to(CLIENT)
    return venv


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GITLAB", "CI_"))}


def test_action_upload_step_comments_and_checks(api: Api, tmp_path: Path) -> None:
    system = "it-action"
    _history(api, tmp_path, system, "pr")
    doc = _doc(tmp_path, system, "pr", MIN_HISTORY, 700.0)
    step = _action()["runs"]["steps"][-1]
    given = {"format": "benchdash", "paths": str(doc), "testbed": "it-forge-box"}
    given |= {"benchdash-url": api.url, "benchdash-token": api.token, "github-token": "gh-secret"}
    values = {k: str(v.get("default", "")) for k, v in _action()["inputs"].items()} | given

    def expand(text: str) -> str:
        return re.sub(r"\$\{\{ inputs\.([\w-]+) \}\}", lambda m: values[m[1]], text)

    with serve("github", "gh-secret") as gh:
        env = _clean_env() | _github_env(gh, tmp_path, "c" * 40)
        env |= {k: expand(str(v)) for k, v in step["env"].items()}
        env["RUNNER_TEMP"] = str(_bin(tmp_path).parent)
        done = subprocess.run(
            ["bash", "-c", step["run"]], env=env, capture_output=True, text=True, check=False
        )
        assert done.returncode == 2, done.stdout + done.stderr  # 30 % worse: the fail gate
        assert len(gh.comments) == 1 and len(gh.checks) == 1, done.stderr
        (check,) = gh.checks.values()
        assert (check["head_sha"], check["conclusion"]) == ("c" * 40, "failure")  # as the exit code
        assert "-30.0 % · worse" in next(iter(gh.comments.values()))["body"]


def test_gitlab_template_script_notes_the_merge_request(api: Api, tmp_path: Path) -> None:
    system = "it-gitlab-tpl"
    _history(api, tmp_path, system, "mr")
    with serve("gitlab", "gl-secret") as gl:
        env = _clean_env() | {
            "BENCHDASH_URL": api.url,
            "BENCHDASH_TOKEN": api.token,
            "BENCHDASH_GITLAB_TOKEN": "gl-secret",
            "BENCHDASH_VENV": str(_bin(tmp_path)),
            "BENCHDASH_FORMAT": "benchdash",
            "CI_API_V4_URL": gl.url,
            "CI_PROJECT_ID": "42",
            "CI_MERGE_REQUEST_IID": "8",
        }
        for i, value in ((MIN_HISTORY, 1000.0), (MIN_HISTORY + 1, 1000.0)):
            env["BENCHDASH_PATHS"] = str(_doc(tmp_path, system, "mr", i, value))
            done = subprocess.run(
                ["sh", "-c", _gitlab_script()], env=env, capture_output=True, text=True
            )
            assert done.returncode == 0, done.stdout + done.stderr
        assert len(gl.comments) == 1
        assert len(gl.calls("PUT", r"/api/v4/projects/42/merge_requests/8/notes/\d+")) == 1
