"""An idle agent waits well (issue 37, item 6): the real `benchdash-runner` process against a
loopback stand-in for the API that holds each ask for work for its `wait_s`, as the API does.
It asks again only when an ask is answered (never more than one ask per `wait_s`: at the
default 30 s, at most 2 a minute), sends one heartbeat at its start and none while idle (the
held ask counts it online) and its log does not grow while it waits."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
WAIT_S = 1.5


@pytest.fixture
def stand_in() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    seen: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def _answer(self, body: dict[str, Any]) -> None:
            raw = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def _request(self) -> dict[str, Any]:
            body = json.loads(self.rfile.read(int(self.headers.get("content-length", "0"))))
            seen.append({"method": self.command, "path": self.path, "body": body})
            return dict(body)

        def do_PUT(self) -> None:
            self._request()
            self._answer({"slug": "selftest", "name": "selftest", "profiles": [], "metrics": []})

        def do_POST(self) -> None:
            body = self._request()
            if self.path.endswith("/agents/claim"):
                time.sleep(min(float(body.get("wait_s", 0)), 30))  # an empty queue, held
                self._answer({"run_id": None, "reason": None})
            else:
                self._answer({"live_agents": 1})

        def log_message(self, *_: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()


def test_an_idle_agent_asks_once_per_wait_and_logs_nothing(
    stand_in: tuple[str, list[dict[str, Any]]], tmp_path: Path
) -> None:
    url, seen = stand_in
    log = tmp_path / "agent.log"
    argv = [sys.executable, "-m", "benchdash_runner.agent.worker", "--system", "selftest"]
    argv += ["--repo", str(ROOT), "--api", url, "--token", "t", "--workdir", str(tmp_path / "w")]
    argv += ["--wait", str(WAIT_S)]
    env = {"PATH": os.environ["PATH"], "PYTHONUNBUFFERED": "1"}
    with log.open("wb") as out:
        agent = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + 30
        while not any(r["path"].endswith("/agents/claim") for r in seen):
            assert agent.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        started, lines = time.monotonic(), log.read_text().splitlines()
        time.sleep(4 * WAIT_S)
        claims = [r for r in seen if r["path"].endswith("/agents/claim")]
        idle_s = time.monotonic() - started
        assert log.read_text().splitlines() == lines, "the log grew while the agent was idle"
    finally:
        agent.send_signal(signal.SIGTERM)
        agent.wait(timeout=WAIT_S + 30)
    print(f"{len(claims)} asks in {idle_s:.1f} s idle with wait_s {WAIT_S}")
    assert {r["body"]["wait_s"] for r in claims} == {WAIT_S}
    assert 3 <= len(claims) <= idle_s / WAIT_S + 1  # held asks, one after another
    assert len([r for r in seen if r["path"].endswith("/heartbeat")]) == 1  # the one at start
    assert len(lines) == 1 and "agent " in lines[0], lines  # the start line only
