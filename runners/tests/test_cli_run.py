"""`benchdash run` before it reaches a server: settings and usage errors exit 1 (2 is kept for
a fail verdict), an unreachable server is named. The round trip with a real API and agent is
tests/integration/test_fleet_run.py."""

import pytest
from rich.console import Console

from benchdash_runner import cli
from benchdash_runner.fleet import watch


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


def test_progress_is_a_line_per_10_percent_in_a_ci_log_and_a_bar_on_a_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    log = watch._Display(show_log=True)
    for percent in (5, 12, 18, 25):
        log.progress({"done": 1, "total": 4, "percent": percent, "scenario": "loop"})
    log.close()
    lines = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("progress:")]
    assert lines == [f"progress: {p} % (1/4 loop)" for p in (5, 12, 25)]
    bar = watch._Display(show_log=True)
    bar.err = Console(stderr=True, force_terminal=True, width=100)
    bar.progress({"done": 3, "total": 4, "percent": 75.0})
    bar.close()
    assert " 75 %" in capsys.readouterr().err
