"""`benchdash run` before it reaches a server: settings and usage errors exit 1 (2 is kept for
a fail verdict), an unreachable server is named. The round trip with a real API and agent is
tests/integration/test_fleet_run.py."""

import pytest

from benchdash_runner import cli


def test_missing_settings_exit_1_naming_them(
    clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    clean_env.delenv("BENCHDASH_URL", raising=False)
    clean_env.delenv("BENCHDASH_TOKEN", raising=False)
    assert cli.main(["run", "--system", "cachex", "--ref", "main"]) == 1
    assert "BENCHDASH_URL and BENCHDASH_TOKEN not set" in capsys.readouterr().err


def test_usage_errors_exit_1_not_2(
    clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["run", "--system", "cachex"]) == 1  # no --ref
    assert "--ref" in capsys.readouterr().err
    assert cli.main(["run", "--system", "s", "--ref", "r", "--fail-on", "sometimes"]) == 1


def test_an_unreachable_server_is_named(
    clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    clean_env.setenv("BENCHDASH_URL", "http://127.0.0.1:9")  # discard port: nothing listens
    clean_env.setenv("BENCHDASH_TOKEN", "bd_x")
    assert cli.main(["run", "--system", "cachex", "--ref", "main", "--wait"]) == 1
    assert "cannot reach http://127.0.0.1:9" in capsys.readouterr().err
