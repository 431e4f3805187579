"""Start and stop real runner agents (`benchdash-runner`) for the integration tests."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.integration.conftest import BIN, ROOT, Api

TERMINAL = {"completed", "failed", "cancelled", "timed_out"}


@contextmanager
def agents(
    api: Api,
    tmp: Path,
    count: int = 1,
    system: str = "selftest",
    env: dict[str, str] | None = None,
    host: str = "it-host",
    repo: Path = ROOT,
) -> Iterator[list[subprocess.Popen[bytes]]]:
    """`count` agents of `system` on one host id, each with its own work directory."""
    procs = []
    for i in range(count):
        log = (tmp / f"agent-{system}-{i}.log").open("wb")
        procs.append(
            subprocess.Popen(
                [
                    str(BIN / "benchdash-runner"),
                    "--system",
                    system,
                    "--repo",
                    str(repo),
                    "--api",
                    api.url,
                    "--token",
                    api.token,
                    "--workdir",
                    str(tmp / f"work-{system}-{i}"),
                    "--host-id",
                    host,
                ],
                env={**os.environ, "BENCHDASH_SELFTEST_S": "0.3", **(env or {})},
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
    try:
        wait_for(lambda: get(api, f"/api/v1/systems/{system}").get("profiles"), 60, "registration")
        yield procs
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def get(api: Api, path: str) -> Any:
    """GET JSON (a 404 gives {})."""
    try:
        with urllib.request.urlopen(api.url + path, timeout=10) as r:
            return json.load(r)
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            return {}
        raise


def post(api: Api, path: str, body: dict[str, Any] | None = None) -> Any:
    """POST JSON with the admin token."""
    req = urllib.request.Request(
        api.url + path,
        data=json.dumps(body or {}).encode(),
        method="POST",
        headers={"Authorization": f"Bearer {api.token}", "content-type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def wait_for(check: Any, timeout: float, what: str, every: float = 0.2) -> Any:
    """Poll `check()` until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def events(api: Api, run_id: int, timeout: float = 120) -> list[tuple[str, dict[str, Any]]]:
    """Read the run's server-sent events until the stream ends."""
    out: list[tuple[str, dict[str, Any]]] = []
    with urllib.request.urlopen(f"{api.url}/api/v1/runs/{run_id}/events", timeout=timeout) as r:
        kind = None
        for raw in r:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: ") and kind:
                out.append((kind, json.loads(line[6:])))
                if kind == "end":
                    break
    return out
