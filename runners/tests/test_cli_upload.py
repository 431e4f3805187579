"""`benchdash upload` against a real HTTP server on loopback standing in for the API."""

from pathlib import Path

import pytest
from runner_fakes import FakeApi, Reply, verdict

from benchdash_runner import cli

ARGS = [
    "upload",
    "--system",
    "uvhttp",
    "--format",
    "wrk",
    "--branch",
    "main",
    "--commit",
    "abc1234",
    "--retry-delay",
    "0",
]


def test_ok_upload_posts_document_and_exits_0(
    env: pytest.MonkeyPatch, fake_api: FakeApi, testdata: Path, tmp_path: Path, capsys
) -> None:
    fake_api.verdicts = [verdict("ok"), verdict("improved", metric="latency_p99_ms")]
    summary = tmp_path / "summary.md"
    code = cli.main([*ARGS, "--summary", str(summary), str(testdata / "wrk/rounds.txt")])
    assert code == 0
    (req,) = fake_api.requests
    assert req["path"] == "/api/v1/results"
    assert req["headers"]["Authorization"] == "Bearer bd_test_token"
    doc = req["doc"]
    assert doc["schema"] == "benchdash/v1" and doc["system"] == "uvhttp"
    assert doc["run"]["branch"] == "main" and doc["run"]["commit"] == "abc1234"
    assert doc["run"]["trigger"] == "manual"
    assert "base_branch" not in doc["run"]  # not a pull request: the server's default
    assert doc["run"]["external_id"].startswith("git-abc1234-uvhttp-")
    assert doc["environment"]["cores"] >= 1
    assert len(doc["results"][0]["metrics"]) == 14
    out = capsys.readouterr().out
    assert "improved" in out and "latency_p99_ms" in out
    assert f"{fake_api.url}/runs/1" in out
    text = summary.read_text()
    assert "no regression" in text and "Regressions" not in text


def test_fail_verdict_exits_2_and_summary_links_the_series(
    env: pytest.MonkeyPatch, fake_api: FakeApi, testdata: Path, tmp_path: Path, capsys
) -> None:
    fake_api.verdicts = [verdict("ok", metric="latency_avg_ms"), verdict("fail", change_pct=12.0)]
    step_summary = tmp_path / "step_summary.md"
    step_summary.write_text("earlier step\n")
    env.setenv("GITHUB_STEP_SUMMARY", str(step_summary))
    code = cli.main([*ARGS, str(testdata / "wrk/rounds.txt")])
    assert code == 2
    text = step_summary.read_text()
    assert text.startswith("earlier step\n")  # appended, not overwritten
    assert "— ❌ 1 regression(s) at or above --fail-on fail" in text  # as the exit code says
    regressions = text.split("### Regressions")[1].split("<details>")[0]
    link = (
        f"({fake_api.url}/systems/uvhttp?benchmark=rounds&metric=requests_per_second&branch=main)"
    )
    assert link in regressions
    assert "-12.0 % · worse" in regressions and "latency_avg_ms" not in regressions
    assert "fail" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("level", "fail_on", "code"),
    [
        ("warn", "fail", 0),
        ("warn", "warn", 2),
        ("fail", "never", 0),
        ("noisy", "warn", 0),
        ("fail", "warn", 2),
    ],
)
def test_fail_on(
    env: pytest.MonkeyPatch, fake_api: FakeApi, testdata: Path, level: str, fail_on: str, code: int
) -> None:
    fake_api.verdicts = [verdict(level)]
    args = [*ARGS, "--fail-on", fail_on, str(testdata / "wrk/plain.txt")]
    assert cli.main(args) == code


def test_retries_503_then_succeeds_with_same_external_id(
    env: pytest.MonkeyPatch, fake_api: FakeApi, testdata: Path, capsys
) -> None:
    busy = {"type": "about:blank", "title": "Service Unavailable", "status": 503, "detail": "db"}
    fake_api.replies = [Reply(503, busy, {"Retry-After": "0"}), Reply(502, busy)]
    assert cli.main([*ARGS, str(testdata / "wrk/plain.txt")]) == 0
    assert len(fake_api.requests) == 3
    ids = {r["doc"]["run"]["external_id"] for r in fake_api.requests}
    assert len(ids) == 1
    err = capsys.readouterr().err
    assert "attempt 1 failed (HTTP 503)" in err and "attempt 2 failed (HTTP 502)" in err


def test_retry_after_a_lost_reply_reports_the_first_attempt(
    env: pytest.MonkeyPatch, fake_api: FakeApi, testdata: Path, capsys
) -> None:
    gateway = {"title": "Gateway Timeout", "status": 504}
    fake_api.replies = [Reply(504, gateway, stores=True)]
    assert cli.main([*ARGS, str(testdata / "wrk/plain.txt")]) == 0
    assert len(fake_api.requests) == 2 and len(fake_api.seen_ids) == 1
    assert "stored by an earlier attempt" in capsys.readouterr().out


def test_gives_up_after_retries(
    env: pytest.MonkeyPatch, fake_api: FakeApi, testdata: Path, capsys
) -> None:
    busy = {"title": "Service Unavailable", "status": 503}
    fake_api.replies = [Reply(503, busy) for _ in range(3)]
    assert cli.main([*ARGS, "--retries", "2", str(testdata / "wrk/plain.txt")]) == 1
    assert len(fake_api.requests) == 3
    assert "giving up after 3 attempts: HTTP 503" in capsys.readouterr().err


def test_connection_refused_is_an_error(
    clean_env: pytest.MonkeyPatch, testdata: Path, capsys
) -> None:
    clean_env.setenv("BENCHDASH_URL", "http://127.0.0.1:9")  # discard port: nothing listens
    clean_env.setenv("BENCHDASH_TOKEN", "t")
    assert cli.main([*ARGS, "--retries", "1", str(testdata / "wrk/plain.txt")]) == 1
    assert "ConnectError" in capsys.readouterr().err


def test_problem_details_are_printed(
    env: pytest.MonkeyPatch, fake_api: FakeApi, testdata: Path, capsys
) -> None:
    problem = {
        "type": "about:blank",
        "title": "Unprocessable Entity",
        "status": 422,
        "detail": "the document is invalid",
        "errors": [{"loc": ["body", "results", 0, "metrics", 1, "value"], "msg": "negative count"}],
    }
    fake_api.replies = [Reply(422, problem)]
    assert cli.main([*ARGS, str(testdata / "wrk/plain.txt")]) == 1
    assert len(fake_api.requests) == 1  # 4xx is not retried
    err = capsys.readouterr().err
    assert "422 Unprocessable Entity: the document is invalid" in err
    assert "body.results.0.metrics.1.value: negative count" in err


def test_second_upload_of_same_run_stores_nothing_new(
    env: pytest.MonkeyPatch, fake_api: FakeApi, testdata: Path, capsys
) -> None:
    args = [*ARGS, str(testdata / "wrk/plain.txt")]
    assert cli.main(args) == 0
    assert cli.main(args) == 0
    assert len(fake_api.seen_ids) == 1
    assert "already uploaded" in capsys.readouterr().out


def test_garbled_input_posts_nothing(
    env: pytest.MonkeyPatch, fake_api: FakeApi, testdata: Path, tmp_path: Path, capsys
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text((testdata / "wrk/latency.txt").read_text().replace("1034.62", "lots"))
    assert cli.main([*ARGS, str(testdata / "wrk/plain.txt"), str(bad)]) == 1
    assert fake_api.requests == []
    assert f"{bad}:12: cannot read 'lots'" in capsys.readouterr().err


def test_wrong_format_and_missing_file_post_nothing(
    env: pytest.MonkeyPatch, fake_api: FakeApi, testdata: Path, capsys
) -> None:
    args = ["upload", "--system", "uvhttp", "--branch", "main"]
    assert cli.main([*args, "--format", "gobench", str(testdata / "hyperfine/sleep.json")]) == 1
    assert cli.main([*args, "--format", "nope", str(testdata / "wrk/plain.txt")]) == 1
    assert cli.main([*args, "--format", "wrk", "missing.txt"]) == 1
    assert fake_api.requests == []
    err = capsys.readouterr().err
    assert "sleep.json: no benchmark lines" in err
    assert "unknown format 'nope'" in err
    assert "missing.txt: no such file" in err


def test_missing_settings_and_branch(clean_env: pytest.MonkeyPatch, testdata: Path, capsys) -> None:
    path = str(testdata / "wrk/plain.txt")
    assert cli.main([*ARGS, path]) == 1
    assert "BENCHDASH_URL and BENCHDASH_TOKEN not set" in capsys.readouterr().err
    clean_env.setenv("BENCHDASH_URL", "http://127.0.0.1:9")
    clean_env.setenv("BENCHDASH_TOKEN", "t")
    assert cli.main(["upload", "--system", "s", "--format", "wrk", path]) == 1
    assert "pass --branch" in capsys.readouterr().err


def test_usage_error_is_exit_1_not_2(capsys) -> None:
    assert_exit(["upload", "--format", "wrk"], 1)
    assert_exit(["upload", "--format", "wrk", "--fail-on", "sometimes", "x"], 1)


def assert_exit(args: list[str], code: int) -> None:
    with pytest.raises(SystemExit) as e:
        cli.main(args)
    assert e.value.code == code


def test_github_actions_ids(env: pytest.MonkeyPatch, fake_api: FakeApi, testdata: Path) -> None:
    env.setenv("GITHUB_ACTIONS", "true")
    env.setenv("GITHUB_SHA", "f" * 40)
    env.setenv("GITHUB_REF_NAME", "main")
    env.setenv("GITHUB_RUN_ID", "4242")
    env.setenv("GITHUB_RUN_ATTEMPT", "1")
    code = cli.main(
        [
            "upload",
            "--system",
            "relay",
            "--format",
            "criterion",
            str(testdata / "criterion/criterion"),
        ]
    )
    assert code == 0
    run = fake_api.requests[0]["doc"]["run"]
    assert run == {
        "commit": "f" * 40,
        "branch": "main",
        "trigger": "ci",
        "external_id": "gh-4242-1-relay",
    }


def test_a_pull_requests_target_is_the_base_branch_unless_told(
    env: pytest.MonkeyPatch, fake_api: FakeApi, testdata: Path
) -> None:
    env.setenv("GITHUB_BASE_REF", "develop")
    assert cli.main([*ARGS, str(testdata / "wrk/rounds.txt")]) == 0
    assert cli.main([*ARGS, "--base-branch", "release/2", str(testdata / "wrk/rounds.txt")]) == 0
    bases = [r["doc"]["run"]["base_branch"] for r in fake_api.requests]
    assert bases == ["develop", "release/2"]
