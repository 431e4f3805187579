"""A Go system's driver with `--cpu-profile`, its document uploaded with `benchdash upload`,
and the profiles read back from the real API (issue 30)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

from tests.integration.agents import get
from tests.integration.conftest import CLIENT, ROOT, Api


def drive_and_upload(api: Api, system: str, benchmarks: str, tmp: Path) -> int:
    """Run `runners/<system>/driver.py --profile quick --cpu-profile`, upload; the run id."""
    out = tmp / f"{system}-out"
    t0 = time.monotonic()
    cmd = [sys.executable, f"runners/{system}/driver.py", "--profile", "quick", "--cpu-profile"]
    done = subprocess.run(
        [*cmd, "--benchmarks", benchmarks, "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    print(f"{system} --cpu-profile ({benchmarks}): {time.monotonic() - t0:.0f} s")
    env = {**os.environ, "BENCHDASH_URL": api.url, "BENCHDASH_TOKEN": api.token}
    for name in ("GITHUB_ACTIONS", "GITLAB_CI", "GITHUB_STEP_SUMMARY"):
        env.pop(name, None)
    external = f"it-{system}-cpu-{uuid.uuid4().hex[:12]}"
    up = subprocess.run(
        [
            CLIENT,
            "upload",
            "--format",
            "benchdash",
            "--external-id",
            external,
            str(out / "result.json"),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert up.returncode == 0, up.stdout + up.stderr
    printed = re.search(r"\brun (\d+) \(", up.stdout)
    assert printed, up.stdout
    return int(printed.group(1))


def folded(api: Api, profile_id: int) -> dict[tuple[str, ...], int]:
    """GET /profiles/{id}?format=folded, parsed."""
    req = urllib.request.Request(f"{api.url}/api/v1/profiles/{profile_id}?format=folded")
    with urllib.request.urlopen(req, timeout=10) as r:
        assert r.headers["Content-Type"].startswith("text/plain")
        text = r.read().decode()
    stacks: dict[tuple[str, ...], int] = {}
    for line in text.splitlines():
        if line:
            stack, _, weight = line.rpartition(" ")
            stacks[tuple(stack.split(";"))] = int(weight)
    return stacks


def share(stacks: dict[tuple[str, ...], int], frame: str) -> float:
    """The fraction of the total in stacks with a frame matching the regular expression."""
    pattern = re.compile(frame)
    hit = sum(w for s, w in stacks.items() if any(pattern.search(f) for f in s))
    return hit / sum(stacks.values())


def profiles(api: Api, run_id: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The run's profile list, and the run's detail."""
    return get(api, f"/api/v1/runs/{run_id}/profiles"), get(api, f"/api/v1/runs/{run_id}")


def go_package(function: str) -> str:
    """The import path of a Go function's package: '' for an assembly symbol (aeshashbody),
    the name itself when it is no function (an address, `[unknown]`)."""
    if re.fullmatch(r"[A-Za-z_]\w*", function):
        return ""
    head = re.split(r"[(\[]", function, maxsplit=1)[0]
    slash = head.rfind("/")
    dot = head.find(".", slash + 1)
    return head[:dot] if dot > 0 else function


def built_from(package: str, go_mod: Path, module: str) -> bool:
    """Whether the package is the Go runtime or standard library, or from `module` or one of
    the modules its go.mod requires."""
    if re.match(r"0x|\[", package):  # an unsymbolized address, [unknown]
        return False
    if "." not in package.split("/")[0]:  # runtime, std (time, sync/atomic, internal/...)
        return True
    required = re.findall(r"^\s*(?:require\s+)?([\w.\-]+\.[\w.\-/]+) v", go_mod.read_text(), re.M)
    return any(package == m or package.startswith(m + "/") for m in (module, *required))
