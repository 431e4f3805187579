"""Fixtures: the captured tool output, a stand-in for the benchdash API on loopback, a demo
system for the driver library."""

from __future__ import annotations

import gzip
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from driving_demo import kill_leftovers, make_demo
from runner_fakes import FakeApi

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"


@pytest.fixture
def testdata() -> Path:
    """The folder of real tool output captured on a development machine."""
    return TESTDATA


@pytest.fixture
def rounds_200k(tmp_path: Path) -> Path:
    """pytest-benchmark's real JSON with a benchmark of 200,000 rounds (8.6 MB, kept gzipped)."""
    out = tmp_path / "rounds_200k.json"
    packed = TESTDATA / "pytest-benchmark/rounds_200k.json.gz"
    out.write_bytes(gzip.decompress(packed.read_bytes()))
    return out


@pytest.fixture
def fake_api() -> Iterator[FakeApi]:
    """A real HTTP server on 127.0.0.1 (ephemeral port) standing in for POST /api/v1/results."""
    api = FakeApi(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length)
            encoding = self.headers.get("Content-Encoding")
            if encoding == "gzip" and api.refuse_gzip:
                self.send_response(415)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            body = gzip.decompress(raw) if encoding == "gzip" else raw
            doc = json.loads(body)
            api.requests.append(
                {
                    "path": self.path,
                    "headers": dict(self.headers),
                    "doc": doc,
                    "sent_bytes": len(raw),
                    "body_bytes": len(body),
                }
            )
            reply = api.answer(doc)
            payload = json.dumps(reply.body).encode()
            self.send_response(reply.status)
            ctype = "application/problem+json" if reply.status >= 400 else "application/json"
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(payload)))
            for k, v in reply.headers.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    api.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield api
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    """No CI variables leak in from the machine running the tests; cwd is not a git checkout."""
    for name in (
        "CI",
        "GITHUB_ACTIONS",
        "GITHUB_SHA",
        "GITHUB_REF_NAME",
        "GITHUB_HEAD_REF",
        "GITHUB_RUN_ID",
        "GITHUB_RUN_ATTEMPT",
        "GITHUB_EVENT_NAME",
        "GITHUB_EVENT_PATH",
        "GITHUB_STEP_SUMMARY",
        "GITLAB_CI",
        "CI_COMMIT_SHA",
        "CI_COMMIT_REF_NAME",
        "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME",
        "CI_PIPELINE_ID",
        "CI_JOB_ID",
        "BENCHDASH_URL",
        "BENCHDASH_TOKEN",
        "BENCHDASH_TESTBED",
        "BENCHDASH_TRIGGER",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    monkeypatch.chdir(tmp_path)
    return monkeypatch


@pytest.fixture
def env(clean_env: pytest.MonkeyPatch, fake_api: FakeApi) -> pytest.MonkeyPatch:
    """A clean environment pointing `benchdash upload` at the fake API with a token."""
    clean_env.setenv("BENCHDASH_URL", fake_api.url + "/")
    clean_env.setenv("BENCHDASH_TOKEN", "bd_test_token")
    return clean_env


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[Path]:
    """A repository root holding the demo system; whatever its driver leaves running fails."""
    yield make_demo(tmp_path)
    left = kill_leftovers(tmp_path)
    assert not left, f"processes left running: {left}"
