"""What `make up` (scripts/up.py, native) gives each process: the API every agent's token, each
agent only its own and none of the API's secrets; a data directory given is the one used and
named, and a password given is never written down (issue 23, items 1 and 7)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from benchdash.startup import parse_agent_tokens
from tests.integration.conftest import ROOT


def _launcher(monkeypatch: pytest.MonkeyPatch, **env: str) -> Any:
    """scripts/up.py loaded afresh under `env` (it reads BENCHDASH_DATA_DIR when loaded)."""
    for name in (
        "BENCHDASH_ADMIN_PASSWORD",
        "BENCHDASH_SECRET_KEY",
        "BENCHDASH_DATA_DIR",
    ):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    spec = importlib.util.spec_from_file_location("up_under_test", ROOT / "scripts" / "up.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "up_under_test", module)
    spec.loader.exec_module(module)
    return module


def test_a_given_data_dir_is_used_and_a_given_password_never_written(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    default = ROOT / ".data" / "admin-password"
    before = default.stat().st_mtime_ns if default.exists() else None
    up = _launcher(
        monkeypatch,
        BENCHDASH_DATA_DIR=str(data),
        BENCHDASH_ADMIN_PASSWORD="given-password",
        DATABASE_URL="postgresql://nowhere/benchdash",
    )
    env, _ = up.native_env(8123)
    assert env["BENCHDASH_ADMIN_PASSWORD"] == "given-password"
    assert not (data / "admin-password").exists()
    assert (default.stat().st_mtime_ns if default.exists() else None) == before
    assert (data / "secret-key").read_text().strip() == env["BENCHDASH_SECRET_KEY"]
    banner = up.banner(env, "http://localhost:8123", ["cachex"], [])
    assert "BENCHDASH_ADMIN_PASSWORD (as you set it)" in banner and "admin-password" not in banner
    assert f"{data}/agent-<system>.log" in banner
    monkeypatch.delenv("DATABASE_URL")
    assert up.where_database() == f"embedded PostgreSQL in {data / 'pg'}"


def test_a_generated_password_is_kept_in_the_data_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    up = _launcher(monkeypatch, BENCHDASH_DATA_DIR=str(tmp_path), DATABASE_URL="postgresql://x/y")
    env, _ = up.native_env(8123)
    kept = tmp_path / "admin-password"
    assert kept.read_text().strip() == env["BENCHDASH_ADMIN_PASSWORD"]
    assert kept.stat().st_mode & 0o777 == 0o600
    assert str(kept) in up.banner(env, "http://localhost:8123", [], [])


def test_each_agent_gets_its_own_token_and_no_api_secret(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    up = _launcher(
        monkeypatch,
        BENCHDASH_DATA_DIR=str(tmp_path),
        DATABASE_URL="postgresql://x/y",
        BENCHDASH_AGENT_TOKEN_RELAY="bd_0123456789ab_givengivengivengivengiven",
    )
    env, tokens = up.native_env(8123)
    assert set(tokens) == set(up.systems()) and len(set(tokens.values())) == len(tokens)
    assert tokens["relay"] == "bd_0123456789ab_givengivengivengivengiven"  # given: used
    assert parse_agent_tokens(env["BENCHDASH_AGENT_TOKENS"]) == tokens  # what the API makes valid
    again, _ = up.native_env(8123)
    assert again["BENCHDASH_AGENT_TOKENS"] == env["BENCHDASH_AGENT_TOKENS"]  # kept, not remade
    for system, token in tokens.items():
        agent = up.fleet.agent_env(env, token)
        assert agent["BENCHDASH_TOKEN"] == token, system
        assert "DATABASE_URL" not in agent  # agents ask the API for work, never the database
        leaked = [k for k in agent if k in up.fleet.API_SECRETS or "AGENT_TOKEN" in k]
        assert not leaked, (system, leaked)
        assert not {v for k, v in agent.items() if k != "BENCHDASH_TOKEN"} & set(tokens.values())


def test_agents_get_an_allow_list_not_the_whole_shell(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    up = _launcher(monkeypatch, BENCHDASH_DATA_DIR=str(tmp_path))
    shell = {
        "PATH": "/usr/bin:/bin",
        "HOME": "/home/op",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "SSH_AUTH_SOCK": "/run/op/agent.sock",
        "GIT_SSH_COMMAND": "ssh -i /home/op/.ssh/bench",
        "BENCHDASH_URL": "http://127.0.0.1:8123",
        "BENCHDASH_HOST_ID": "box-1",
        "BENCHDASH_REPO": "/src",
        "BENCHDASH_SELFTEST_S": "0.3",
        # what an operator's shell may hold that no agent needs
        "BENCHDASH_SMTP_PASSWORD": "mail-secret",
        "PGPASSWORD": "replication-secret",
        "POSTGRES_PASSWORD": "pg-secret",
        "BENCHDASH_SECRET_KEY": "cookie-secret",
        "AWS_SECRET_ACCESS_KEY": "aws-secret",
        "SOME_TOOL_SETTING": "x",
    }
    agent = up.fleet.agent_env(shell, "bd_0123456789ab_tok", ["BENCHDASH_SELFTEST_S"])
    assert agent == {
        **{k: shell[k] for k in ("PATH", "HOME", "LANG", "LC_ALL", "SSH_AUTH_SOCK")},
        **{k: shell[k] for k in ("GIT_SSH_COMMAND", "BENCHDASH_URL", "BENCHDASH_HOST_ID")},
        "BENCHDASH_REPO": "/src",
        "BENCHDASH_SELFTEST_S": "0.3",  # the manifest passes it to its benchmarks
        "BENCHDASH_TOKEN": "bd_0123456789ab_tok",
    }
    assert "BENCHDASH_SELFTEST_S" not in up.fleet.agent_env(shell, "t")  # only when passed
