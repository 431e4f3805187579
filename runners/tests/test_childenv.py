"""The allow-listed environment of the agent's children (childenv.py)."""

from __future__ import annotations

import json
import subprocess
import sys

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
