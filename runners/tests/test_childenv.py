"""The allow-listed environment of the agent's children (childenv.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchdash_runner.childenv import ALLOWED, child_env

AGENT_ENV = {
    "PATH": "/usr/bin",
    "HOME": "/home/bench",
    "LC_ALL": "C.UTF-8",
    "CARGO_HOME": "/opt/cargo",
    "GOFLAGS": "-mod=mod",
    "BENCHDASH_TOKEN": "bd_0123456789ab_secretsecretsecretsecret",
    "BENCHDASH_URL": "http://api:8000",
    "DATABASE_URL": "postgresql://benchdash:pw@db/benchdash",
    "BENCHDASH_ADMIN_PASSWORD": "hunter2",
    "BENCHDASH_SECRET_KEY": "signing",
    "AWS_SECRET_ACCESS_KEY": "aws",
    "SSH_AUTH_SOCK": "/tmp/ssh-agent.sock",
    "UNRELATED": "not needed",
}


def test_only_the_allow_list_passes() -> None:
    env = child_env(AGENT_ENV)
    assert env == {
        "PATH": "/usr/bin",
        "HOME": "/home/bench",
        "LC_ALL": "C.UTF-8",
        "CARGO_HOME": "/opt/cargo",
        "GOFLAGS": "-mod=mod",
    }


def test_credential_names_are_denied_even_when_asked_for() -> None:
    asked = ["BENCHDASH_TOKEN", "DATABASE_URL", "AWS_SECRET_ACCESS_KEY", "SSH_AUTH_SOCK"]
    env = child_env(AGENT_ENV, pass_env=[*asked, "UNRELATED"])
    assert not set(asked) & set(env)
    assert env["UNRELATED"] == "not needed"  # a manifest may name what its driver reads
    overridden = child_env(AGENT_ENV, overrides={"GITHUB_TOKEN": "x", "BENCHDASH_RUN_ID": "7"})
    assert "GITHUB_TOKEN" not in overridden and overridden["BENCHDASH_RUN_ID"] == "7"


def test_credential_values_are_denied_under_any_name() -> None:
    source = {
        "CC": "bd_0123456789ab_secretsecretsecretsecret",
        "GOPROXY": "https://user:password@proxy.example.org",
        "CFLAGS": "postgresql://db/benchdash",
        "HTTPS_PROXY": "http://proxy.example.org:3128",
    }
    assert child_env(source) == {"HTTPS_PROXY": "http://proxy.example.org:3128"}


def test_no_allowed_name_looks_like_a_credential() -> None:
    from benchdash_runner.childenv import DENIED_NAME

    assert not [name for name in ALLOWED if DENIED_NAME.search(name)]


def test_a_child_started_with_it_sees_only_it() -> None:
    env = child_env({**AGENT_ENV, "PATH": "/usr/bin:/bin"})
    code = "import os, json; print(json.dumps(sorted(os.environ)))"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    names = set(json.loads(out.stdout))
    assert "BENCHDASH_TOKEN" not in names and "DATABASE_URL" not in names
    assert {"PATH", "HOME", "CARGO_HOME"} <= names


def _as_unprivileged() -> list[str]:
    """Run as an ordinary user: ourselves, or `nobody` when the tests run as root (root could
    read any process, so it would prove nothing)."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv (util-linux) to drop to a plain user")
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


@pytest.mark.parametrize("hide", [False, True])
def test_a_hidden_agent_environment_is_unreadable_to_its_user(hide: bool) -> None:
    runners = Path(__file__).resolve().parents[1]
    code = (
        f"import sys, time; sys.path.insert(0, {str(runners)!r})\n"
        "from benchdash_runner.childenv import hide_own_environment\n"
        f"if {hide}: hide_own_environment()\n"
        "print('ready', flush=True); time.sleep(30)\n"
    )
    user = _as_unprivileged()
    agent = subprocess.Popen(
        [*user, sys.executable, "-c", code],
        env={"PATH": os.environ["PATH"], "BENCHDASH_TOKEN": "bd_0123456789ab_plantedplanted"},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert agent.stdout is not None and agent.stdout.readline() == "ready\n"
        read = subprocess.run(
            [*user, "cat", f"/proc/{agent.pid}/environ"], capture_output=True, check=False
        )
    finally:
        agent.kill()
        agent.wait()
    if hide:
        assert read.returncode != 0 and b"BENCHDASH_TOKEN" not in read.stdout
        assert b"Permission denied" in read.stderr
    else:  # the control: without it, the same user reads the token
        assert b"BENCHDASH_TOKEN=bd_" in read.stdout
