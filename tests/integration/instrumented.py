"""Instrumented (Callgrind) profiles in integration tests: run a driver natively and upload.

The API's run trigger (`POST /api/v1/runs`) accepts only quick/standard/full, so the tests of
the `instructions` profiles run the driver themselves and upload its document with the CI
client, as a CI job would.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.integration.conftest import BIN, CLIENT, ROOT, Api


def run_driver(system: str, out: Path, *extra: str, timeout: float = 900) -> str:
    """`runners/<system>/driver.py --profile instructions --out OUT EXTRA`; its output."""
    env = {**os.environ, "PATH": f"{BIN}:{os.environ['PATH']}", "BENCHDASH_TESTBED": "it-cg"}
    cmd = [str(BIN / "python"), f"runners/{system}/driver.py", "--profile", "instructions"]
    t0 = time.monotonic()
    done = subprocess.run(
        [*cmd, "--out", str(out), *extra], cwd=ROOT, env=env, text=True, capture_output=True,
        timeout=timeout, check=False,
    )  # fmt: skip
    print(f"{system} instructions profile (build included): {time.monotonic() - t0:.0f} s")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def upload(api: Api, system: str, path: Path) -> None:
    """`benchdash upload --format benchdash PATH` to the test API; asserts it succeeded."""
    env = {**os.environ, "BENCHDASH_URL": api.url, "BENCHDASH_TOKEN": api.token}
    for name in ("GITHUB_ACTIONS", "GITLAB_CI", "GITHUB_STEP_SUMMARY"):
        env.pop(name, None)
    cmd = [CLIENT, "upload", "--system", system, "--format", "benchdash", str(path)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def get(api: Api, path: str) -> Any:
    """GET a JSON read endpoint (no token needed for reads)."""
    with urllib.request.urlopen(api.url + path, timeout=30) as r:
        return json.load(r)


def latest_run(api: Api, system: str) -> dict[str, Any]:
    """The newest run of `system`, with its measurements."""
    runs = get(api, f"/api/v1/runs?system={system}")["items"]
    detail: dict[str, Any] = get(api, f"/api/v1/runs/{runs[0]['id']}")
    return detail
