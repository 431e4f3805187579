"""`benchdash convert` and delegation to plugin commands."""

import json
from pathlib import Path

import pytest

from benchdash_runner import cli


def test_convert_writes_document_without_posting(clean_env, testdata: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    code = cli.main(
        [
            "convert",
            "--format",
            "gbench",
            "--system",
            "galay-ssl",
            "--profile",
            "quick",
            str(testdata / "gbench/repetitions.json"),
            "-o",
            str(out),
        ]
    )
    assert code == 0
    doc = json.loads(out.read_text())
    assert doc["system"] == "galay-ssl" and doc["run"]["profile"] == "quick"
    assert doc["run"]["external_id"].startswith("local-galay-ssl-")
    assert "branch" not in doc["run"]  # no git, no CI: left for the server to refuse or default
    assert len(doc["results"]) == 4


def test_convert_gab_with_direction(clean_env, testdata: Path, capsys) -> None:
    args = [
        "convert",
        "--format",
        "gab",
        "--system",
        "x",
        str(testdata / "gab/smaller.json"),
        "-o",
        "-",
    ]
    assert cli.main(args) == 1
    assert "needs a direction" in capsys.readouterr().err
    assert cli.main([*args, "--direction", "smaller"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["results"][0]["metrics"][0]["direction"] == "lower_is_better"


def test_convert_benchdash_keeps_run_and_checks_system(clean_env, testdata: Path, capsys) -> None:
    path = str(testdata / "benchdash/uvhttp_quick.json")
    assert cli.main(["convert", "--format", "benchdash", path, "-o", "-"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["run"]["external_id"] == "capture-wrk-rounds"
    assert doc["environment"]["compiler"] == "GCC"
    assert cli.main(["convert", "--format", "benchdash", "--system", "relay", path, "-o", "-"]) == 1
    assert "not 'relay'" in capsys.readouterr().err


class _FakeEntryPoint:
    def __init__(self, name: str, calls: list) -> None:
        self.name = name
        self._calls = calls

    def load(self):
        def command(argv: list[str]) -> int:
            self._calls.append(argv)
            return 3

        return command


def test_other_commands_go_to_entry_points(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    calls: list = []
    monkeypatch.setattr(cli, "entry_points", lambda group: [_FakeEntryPoint("token", calls)])
    assert cli.main(["token", "create", "--system", "relay"]) == 3
    assert calls == [["token", "create", "--system", "relay"]]
    assert cli.main(["tokn"]) == 1
    assert (
        "unknown command 'tokn'; known commands: convert, export, import, run, token, upload"
        in capsys.readouterr().err
    )


def test_no_command_prints_help(capsys) -> None:
    assert cli.main([]) == 1
    assert "upload" in capsys.readouterr().out


def test_convert_keeps_queued_run_id_without_inventing_external_id(
    clean_env, testdata: Path, tmp_path: Path, capsys
) -> None:
    doc = json.loads((testdata / "benchdash/uvhttp_quick.json").read_text())
    del doc["run"]["external_id"]
    doc["run"]["id"] = 41
    src = tmp_path / "result.json"
    src.write_text(json.dumps(doc))
    assert cli.main(["convert", "--format", "benchdash", str(src), "-o", "-"]) == 0
    run = json.loads(capsys.readouterr().out)["run"]
    assert run["id"] == 41 and "external_id" not in run
