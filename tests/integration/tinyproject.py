"""A tiny Python project in a bare git repository of its own, with no code of benchdash's: a
script that times a loop and writes hyperfine's JSON, a `benchdash.toml`, and a knob file
(`slowdown.txt`) a commit turns up to make it 30 % slower. Plus what a forge does: push, post a
signed GitHub push event, and serve the repository over `git daemon` (issue 37's tests).

The loop's body sleeps (2 ms x the knob): sleeping is steady on a busy 2-core machine, so the
step is plain in every run (the bisection tests' reasoning, tests/integration/bisectrepo.py).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.integration.conftest import Api
from tests.integration.pg import free_port
from tests.integration.procs import spawn, stop

GIT_ENV = {"GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "dev@example.invalid"}
GIT_ENV |= {"GIT_COMMITTER_NAME": "Dev", "GIT_COMMITTER_EMAIL": "dev@example.invalid"}
GIT_ENV |= {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"}

BENCH = """\
import json, os, time
factor = float(open("slowdown.txt").read())
samples = []
for _ in range(int(os.environ.get("TINY_SAMPLES", "12"))):
    t0 = time.perf_counter()
    for _ in range(10):
        time.sleep(0.002 * factor)
    samples.append(time.perf_counter() - t0)
os.makedirs("out", exist_ok=True)
with open("out/loop.json", "w") as f:
    json.dump({"results": [{"command": "loop", "times": samples}]}, f)
print(f"loop: {len(samples)} samples, median {sorted(samples)[len(samples) // 2] * 1e3:.2f} ms")
"""
MANIFEST = """\
name = "Tiny loop"
language = "Python"
headline = { benchmark = "loop", metric = "time" }

[profiles.quick]
description = "the loop, 12 samples x 2 repetitions"
build = "python3 -m py_compile bench.py"
bench = ["python3", "bench.py"]
output = "out/loop.json"
format = "hyperfine"
repetitions = 2
time_limit_s = 60
build_timeout_s = 60

[[metrics]]
name = "time"
unit = "ms"
direction = "lower_is_better"
"""


def git(cwd: Path, *args: str) -> str:
    """Run git in `cwd`; its output."""
    out = subprocess.run(["git", *args], cwd=cwd, env=GIT_ENV, capture_output=True, text=True)
    assert out.returncode == 0, (args, out.stderr)
    return out.stdout.strip()


@dataclass
class Project:
    """The bare repository (the forge's), a work clone (a developer's), and its file:// URL."""

    bare: Path
    work: Path

    @property
    def url(self) -> str:
        return f"file://{self.bare}"

    def commit(self, subject: str, *, factor: float | None = None, note: str = "") -> str:
        """Commit a change (the knob, or a line in NOTES); its SHA. Nothing is pushed."""
        if factor is not None:
            (self.work / "slowdown.txt").write_text(f"{factor}\n")
        if note:
            with (self.work / "NOTES").open("a") as f:
                f.write(note + "\n")
        git(self.work, "add", ".")
        git(self.work, "commit", "-qm", subject)
        return git(self.work, "rev-parse", "HEAD")

    def push(self) -> str:
        """Push main; the pushed head."""
        git(self.work, "push", "-q", "origin", "HEAD:main")
        return git(self.work, "rev-parse", "HEAD")


def make_project(tmp: Path) -> Project:
    """The project with its first commit on main (pushed: agents read its benchdash.toml)."""
    bare, work = tmp / "tiny.git", tmp / "tiny"
    git(tmp, "init", "-q", "--bare", "-b", "main", str(bare))
    git(tmp, "clone", "-q", str(bare), str(work))
    git(work, "checkout", "-q", "-b", "main")
    (work / "bench.py").write_text(BENCH)
    (work / "benchdash.toml").write_text(MANIFEST)
    project = Project(bare=bare, work=work)
    project.commit("tiny: a loop and its benchmark", factor=1.0)
    project.push()
    return project


def github_push(api: Api, url: str, sha: str, secret: str) -> tuple[int, dict[str, object]]:
    """POST a GitHub push event of `sha` to main, signed with `secret`: (status, body)."""
    body = json.dumps(
        {"ref": "refs/heads/main", "after": sha, "repository": {"clone_url": url}}
    ).encode()
    sig = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    headers = {"x-github-event": "push", "x-hub-signature-256": sig}
    req = urllib.request.Request(
        f"{api.url}/api/v1/hooks/github",
        data=body,
        method="POST",
        headers={**headers, "content-type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def set_source(api: Api, slug: str, url: str, secret: str) -> dict[str, object]:
    """PUT the system's source (it makes the system): URL and webhook secret."""
    body = json.dumps({"source_url": url, "hook_secret": secret}).encode()
    req = urllib.request.Request(
        f"{api.url}/api/v1/systems/{slug}/source",
        data=body,
        method="PUT",
        headers={"Authorization": f"Bearer {api.token}", "content-type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        found: dict[str, object] = json.load(r)
        return found


@contextlib.contextmanager
def git_daemon(base: Path) -> Iterator[str]:
    """`git daemon` serving `base` read-only on 127.0.0.1 (a free port); its git:// URL base."""
    port = free_port()
    daemon = ["git", "daemon", "--reuseaddr", "--export-all", f"--base-path={base}"]
    proc = spawn(
        [*daemon, "--listen=127.0.0.1", f"--port={port}", str(base)],
        env=GIT_ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while subprocess.run(
            ["git", "ls-remote", f"git://127.0.0.1:{port}/tiny.git"],
            env=GIT_ENV,
            capture_output=True,
        ).returncode:
            assert proc.poll() is None and time.monotonic() < deadline, "git daemon did not start"
            time.sleep(0.2)
        yield f"git://127.0.0.1:{port}"
    finally:
        stop(proc)
