"""`benchdash upload` of large documents: streamed, gzipped within the server's limit, refused
before posting when too many benchmarks (a real HTTP server on loopback stands in for the API)."""

import json
from pathlib import Path

import pytest
from runner_fakes import FakeApi
from test_cli_upload import ARGS

from benchdash_runner import cli


def test_large_upload_streams(env: pytest.MonkeyPatch, fake_api: FakeApi, tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    lines = [
        f"BenchmarkCase{i}/size={i}-2   1000   {100 + i % 7}.5 ns/op   64 B/op   1 allocs/op"
        for i in range(3000)
    ]
    big.write_text("\n".join(lines * 5))
    code = cli.main([*ARGS[:4], "gobench", *ARGS[5:], str(big)])
    assert code == 0
    doc = fake_api.requests[0]["doc"]
    assert len(json.dumps(doc)) > 1 << 20
    assert len(doc["results"]) == 3000


def test_too_many_benchmarks_posts_nothing(
    env: pytest.MonkeyPatch, fake_api: FakeApi, tmp_path: Path, capsys
) -> None:
    big = tmp_path / "big.txt"
    big.write_text("\n".join(f"BenchmarkCase{i}-2  10  5.0 ns/op" for i in range(5001)))
    assert cli.main([*ARGS[:4], "gobench", *ARGS[5:], str(big)]) == 1
    assert fake_api.requests == []
    assert "results: 5001 benchmarks, more than 5000" in capsys.readouterr().err


PYTEST_ARGS = [a if a != "wrk" else "pytest-benchmark" for a in ARGS]


def test_200k_rounds_upload_gzipped_within_the_limit(
    env: pytest.MonkeyPatch, fake_api: FakeApi, rounds_200k: Path
) -> None:
    assert rounds_200k.stat().st_size > 8_000_000  # the tool's own file, as CI has it
    assert cli.main([*PYTEST_ARGS, str(rounds_200k)]) == 0
    (req,) = fake_api.requests
    assert req["headers"]["Content-Encoding"] == "gzip"
    assert req["body_bytes"] <= 5 << 20 and req["sent_bytes"] < req["body_bytes"] / 2
    digest, sort = req["doc"]["results"]
    assert len(digest["metrics"][0]["samples"]) == 10_000 and digest["metrics"][0]["value"] > 0
    assert len(sort["metrics"][0]["samples"]) == 90


def test_small_bodies_go_plain_and_gzip_refusal_falls_back(
    env: pytest.MonkeyPatch, fake_api: FakeApi, testdata: Path, rounds_200k: Path
) -> None:
    assert cli.main([*ARGS, str(testdata / "wrk/rounds.txt")]) == 0
    assert "Content-Encoding" not in fake_api.requests[0]["headers"]
    fake_api.refuse_gzip = True  # a server that predates gzip bodies answers 415
    assert cli.main([*PYTEST_ARGS, "--external-id", "big", str(rounds_200k)]) == 0
    last = fake_api.requests[-1]
    assert "Content-Encoding" not in last["headers"] and last["sent_bytes"] == last["body_bytes"]
