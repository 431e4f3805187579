"""A git repository of 16 commits for a tiny benchmark whose commit k makes it slower, and the
real agents that work it (issue 29's bisection tests).

Commit 0 is the good end, commit 15 the bad end. The benchmark (`runners/<system>/driver.py`,
on `benchdash_runner.driving`) times sleeps of 100 ms x the factor in `slowdown.txt`, with
± `noise.txt` jitter: sleeping is steady on a busy machine, so a 30 % step is plain. A commit
holding `BROKEN` fails its build (exit 3).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.integration.agents import get, wait_for
from tests.integration.conftest import BIN, Api

COMMITS = 16
DRIVER = """\
#!/usr/bin/env python3
import random, sys, time
from pathlib import Path
from benchdash_runner import document, driving

here = Path(__file__).parent
drv, _ = driving.start(here / "runner.toml")
factor = float((here / "slowdown.txt").read_text())
noise = float((here / "noise.txt").read_text())
drv.phase("building")
fail = "raise SystemExit('error: this commit does not build')"
drv.build([sys.executable, "-c", fail if (here / "BROKEN").exists() else "print('built')"])
drv.phase("running")
rng, results = random.Random(), []
for name in drv.scenarios:
    drv.progress(name)
    samples = []
    for _ in range(drv.repetitions):
        t0 = time.perf_counter()
        time.sleep(0.1 * factor * (1 + rng.uniform(-noise, noise)))
        samples.append((time.perf_counter() - t0) * 1000)
    ms = document.metric("time_ms", "ms", "lower_is_better", samples=samples)
    results.append({"benchmark": name, "parameters": {}, "metrics": [ms]})
drv.finish(results)
"""
MANIFEST = """\
system = "{system}"
name = "{system}"
language = "Python"
description = "A tiny benchmark that one commit makes slower (bisection tests)"
source = "runners/{system}"
requires = ["git"]
headline = {{ benchmark = "work", metric = "time_ms" }}

[driver]
command = ["runners/{system}/driver.py"]
adapter = "benchdash"

[profiles.quick]
description = "1 scenario x 6 repetitions"
time_limit_s = 60
repetitions = 6
scenarios = ["work"]

[[metrics]]
name = "time_ms"
unit = "ms"
direction = "lower_is_better"
"""


@dataclass(frozen=True)
class Repo:
    """The repository, its system and its commits oldest first."""

    root: Path
    system: str
    shas: list[str]


def make_repo(
    root: Path, system: str, k: int, *, slowdown: float, noise: float, broken: int | None = None
) -> Repo:
    """Commits 0..15; commit `k` multiplies the benchmark's time by `slowdown`; commit
    `broken` (if any) does not build."""
    runner = root / "runners" / system
    runner.mkdir(parents=True)
    (runner / "runner.toml").write_text(MANIFEST.format(system=system))
    (runner / "driver.py").write_text(DRIVER)
    (runner / "driver.py").chmod(0o755)
    (runner / "noise.txt").write_text(str(noise))
    git = ["git", "-C", str(root), "-c", "user.email=dev@localhost"]
    subprocess.run([*git, "init", "-q"], check=True)
    shas = []
    for i in range(COMMITS):
        (runner / "slowdown.txt").write_text(str(slowdown if i >= k else 1.0))
        (runner / "history.txt").write_text(f"change {i}\n")
        (runner / "BROKEN").unlink(missing_ok=True)
        if i == broken:
            (runner / "BROKEN").write_text("this commit does not build\n")
        subprocess.run([*git, "add", "-A"], check=True)
        subject = f"change {i}" + (": make work slower" if i == k else "")
        author = ["-c", f"user.name=Dev {i}"]
        subprocess.run([*git, *author, "commit", "-qm", subject], check=True)
        head = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True)
        shas.append(head.stdout.strip())
    return Repo(root=root, system=system, shas=shas)


@contextlib.contextmanager
def agents(api: Api, repo: Repo, tmp: Path, count: int = 2) -> Iterator[list[Path]]:
    """`count` real agents of the repo's system, each on a host of its own; yields their logs."""
    procs, logs = [], []
    for i in range(count):
        log = tmp / f"agent-{repo.system}-{i}.log"
        cmd = [str(BIN / "benchdash-runner"), "--system", repo.system, "--repo", str(repo.root)]
        cmd += ["--api", api.url, "--token", api.token, "--poll", "0.3"]
        cmd += ["--workdir", str(tmp / f"work-{i}"), "--host-id", f"it-bisect-{repo.system}-{i}"]
        with log.open("wb") as out:
            procs.append(subprocess.Popen(cmd, env=dict(os.environ), stdout=out, stderr=out))
        logs.append(log)
    try:
        wait_for(lambda: get(api, f"/api/v1/systems/{repo.system}").get("profiles"), 60, "agents")
        yield logs
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
