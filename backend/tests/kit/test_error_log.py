"""Every 5xx the API answers (but 503) lands in the error log `make test` checks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.testclient import TestClient
from sqlalchemy import exc as sa_exc

from benchdash.kit.request import RequestGuard

CHECK = Path(__file__).resolve().parents[3] / "scripts" / "check-error-log"


def _client(log: Path) -> TestClient:
    app = FastAPI()
    app.add_middleware(RequestGuard, error_log=log)

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("bug")

    @app.get("/away")
    def away() -> None:
        raise sa_exc.TimeoutError("QueuePool limit reached")

    @app.get("/missing")
    def missing() -> None:
        raise HTTPException(404, "no such thing")

    @app.get("/gateway")
    def gateway() -> None:
        raise HTTPException(502, "upstream said no")

    return TestClient(app, raise_server_exceptions=False)


def test_500s_and_other_5xx_are_logged_4xx_and_503_are_not(tmp_path: Path) -> None:
    log = tmp_path / "errors.jsonl"
    c = _client(log)
    assert c.get("/missing").status_code == 404
    assert c.get("/away").status_code == 503
    assert not log.exists()
    r = c.get("/boom")
    assert r.status_code == 500
    assert c.get("/gateway").status_code == 502
    lines = [json.loads(ln) for ln in log.read_text().splitlines()]
    assert [(e["status"], e["path"]) for e in lines] == [(500, "/boom"), (502, "/gateway")]
    assert lines[0]["request_id"] == r.headers["x-request-id"]


def test_the_check_fails_on_a_logged_5xx_and_passes_on_none(tmp_path: Path) -> None:
    log = tmp_path / "errors.jsonl"
    ok = subprocess.run([sys.executable, CHECK, log], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout
    _client(log).get("/boom")
    bad = subprocess.run([sys.executable, CHECK, log], capture_output=True, text=True)
    assert bad.returncode == 1
    assert "1 × 5xx" in bad.stdout and "500 GET /boom" in bad.stdout
