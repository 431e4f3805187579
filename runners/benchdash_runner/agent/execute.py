"""Run one job: host lock, checkout, the driver in its own process group, live reports, upload."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from benchdash_runner.agent.api import AgentApi, ApiError
from benchdash_runner.agent.manifest import Manifest
from benchdash_runner.agent.source import SourceError, checkout

PROGRESS = re.compile(r"^##benchdash progress (\d+)/(\d+)(?: (.*))?$")
PHASE = re.compile(r"^##benchdash phase (\w+)\s*$")
BUILD_FAILED = 3
MAX_BATCH = 300


@dataclass
class AgentSettings:
    """How this agent works: where, as whom, how often it reports."""

    repo: Path
    workdir: Path
    host_id: str
    name: str
    database_url: str
    heartbeat_s: float = 2.0
    kill_grace_s: float = 2.0
    lock_poll_s: float = 1.0


class HostLock:
    """One benchmark per host: a PostgreSQL advisory lock named after the host id."""

    def __init__(self, database_url: str, host_id: str) -> None:
        self._conn = psycopg.connect(database_url, autocommit=True)
        self._key = f"benchdash-host:{host_id}"

    def acquire(self, still_wanted: Callable[[], bool], poll_s: float) -> bool:
        """Try until the lock is ours (True) or `still_wanted` says stop (False)."""
        while True:
            got = self._conn.execute(
                "SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", (self._key,)
            ).fetchone()
            if got and got[0]:
                return True
            if not still_wanted():
                return False
            time.sleep(poll_s)

    def close(self) -> None:
        """Closing the session releases the lock."""
        self._conn.close()


@dataclass
class Progress:
    """The driver's progress lines turned into percent and ETA."""

    started: float = field(default_factory=time.monotonic)

    def parse(self, done: int, total: int, scenario: str | None) -> dict[str, Any]:
        """Scenario `done` of `total` starts (or `total/total` = finished)."""
        finished = done >= total and (scenario or "").strip() == "done"
        completed = total if finished else max(done - 1, 0)
        fraction = completed / total if total else 0.0
        elapsed = time.monotonic() - self.started
        eta = (
            elapsed * (1 - fraction) / fraction if 0 < fraction < 1 else (0.0 if finished else None)
        )
        return {
            "done": completed,
            "total": total,
            "scenario": None if finished else scenario,
            "percent": round(100 * fraction, 1),
            "eta_s": None if eta is None else round(eta, 1),
        }


class Supervisor:
    """Runs the driver, relays its output and obeys cancel and the time limit."""

    def __init__(self, api: AgentApi, run_id: int, settings: AgentSettings) -> None:
        self.api = api
        self.run_id = run_id
        self.settings = settings
        self.outcome: str | None = None  # "cancelled" | "timed_out" when we killed it

    def _reader(self, stream: Any, lines: queue.Queue[str | None]) -> None:
        for raw in stream:
            lines.put(raw.rstrip("\n"))
        lines.put(None)

    def run(self, argv: list[str], cwd: Path, env: dict[str, str], limit_s: float) -> int:
        """Run to the end (or the kill); returns the exit code."""
        proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
            start_new_session=True,
        )
        lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._reader, args=(proc.stdout, lines), daemon=True).start()
        deadline = time.monotonic() + limit_s
        progress = Progress()
        pending: list[str] = []
        latest: dict[str, Any] | None = None
        status: str | None = None
        last_report = 0.0
        kill_at: float | None = None
        eof = False
        while True:
            try:
                item = lines.get(timeout=0.25)
                while True:
                    if item is None:
                        eof = True
                        break
                    phase, prog = PHASE.match(item), PROGRESS.match(item)
                    if phase and phase.group(1) == "running":
                        status, progress = "running", Progress()
                    elif prog:
                        latest = progress.parse(int(prog[1]), int(prog[2]), prog[3])
                        status = status or "running"
                    elif not phase:
                        pending.append(item)
                    item = lines.get_nowait()
            except queue.Empty:
                pass
            now = time.monotonic()
            if (
                status
                or len(pending) >= MAX_BATCH
                or now - last_report >= self.settings.heartbeat_s
            ):
                try:
                    ack = self.api.report(
                        self.run_id,
                        status=status,
                        progress=latest,
                        lines=pending[: MAX_BATCH * 4],
                        agent=self.settings.name,
                    )
                    pending, latest, status, last_report = [], None, None, now
                    if ack.cancel_requested and kill_at is None:
                        self.outcome, kill_at = "cancelled", self._kill(proc, signal.SIGTERM)
                except ApiError as exc:  # the API may be restarting: keep going, retry soon
                    print(f"report failed: {exc}", file=sys.stderr)
                    last_report = now
            if kill_at is None and now > deadline:
                self.outcome, kill_at = "timed_out", self._kill(proc, signal.SIGTERM)
            if (
                kill_at is not None
                and proc.poll() is None
                and now - kill_at > self.settings.kill_grace_s
            ):
                self._kill(proc, signal.SIGKILL)
            if eof and proc.poll() is not None:
                break
        if pending or latest:
            self._safe_report(lines=pending, progress=latest)
        return int(proc.returncode)

    def _kill(self, proc: subprocess.Popen[str], sig: int) -> float:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        return time.monotonic()

    def _safe_report(self, **body: Any) -> None:
        try:
            self.api.report(self.run_id, agent=self.settings.name, **body)
        except ApiError as exc:
            print(f"report failed: {exc}", file=sys.stderr)


def _die_with_parent() -> None:
    """In the child: ask Linux to SIGKILL it if the agent dies (no orphaned benchmarks)."""
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)


def _driver_env(run: dict[str, Any]) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["BENCHDASH_TRIGGER"] = str(run.get("trigger") or "web")
    env["BENCHDASH_RUN_ID"] = str(run["id"])
    env["PYTHONUNBUFFERED"] = "1"
    return env


def execute(run_id: int, *, api: AgentApi, manifest: Manifest, settings: AgentSettings) -> str:
    """Carry one queued run through to its final state; returns that state."""
    run = api.run(run_id)
    if run["status"] != "queued":
        return str(run["status"])
    lock = HostLock(settings.database_url, settings.host_id)
    try:
        told = {"said": False}

        def still_wanted() -> bool:
            lines = [] if told["said"] else [f"waiting for host {settings.host_id} to be free"]
            told["said"] = True
            return not api.report(run_id, lines=lines, agent=settings.name).cancel_requested

        if not lock.acquire(still_wanted, settings.lock_poll_s):
            api.report(run_id, status="cancelled", message="cancelled while waiting for the host")
            return "cancelled"
        return _run_locked(run, api=api, manifest=manifest, settings=settings)
    finally:
        lock.close()


def _run_locked(
    run: dict[str, Any], *, api: AgentApi, manifest: Manifest, settings: AgentSettings
) -> str:
    run_id, profile = int(run["id"]), str(run["profile"])
    ref = str(run.get("ref") or "HEAD")
    api.report(
        run_id,
        status="building",
        agent=settings.name,
        lines=[f"agent {settings.name} on host {settings.host_id}: checking out {ref}"],
    )
    try:
        cwd, sha = checkout(settings.repo, ref, settings.workdir / "src")
    except SourceError as exc:
        api.report(run_id, status="failed", message=str(exc), lines=[str(exc)])
        return "failed"
    out = settings.workdir / "out" / f"run-{run_id}"
    out.mkdir(parents=True, exist_ok=True)
    argv = [*manifest.command, "--profile", profile, "--out", str(out)]
    if run.get("requested_benchmarks"):
        argv += ["--benchmarks", ",".join(run["requested_benchmarks"])]
    argv[0] = str(cwd / argv[0]) if not os.path.isabs(argv[0]) and "/" in argv[0] else argv[0]
    limit = manifest.time_limit(profile)
    api.report(run_id, lines=[f"commit {sha or '(source as built)'}; $ {' '.join(argv)}"])
    sup = Supervisor(api, run_id, settings)
    code = sup.run(argv, cwd, _driver_env(run), limit)
    if sup.outcome == "cancelled":
        api.report(run_id, status="cancelled", message="cancelled: the benchmark was stopped")
        return "cancelled"
    if sup.outcome == "timed_out":
        api.report(
            run_id,
            status="timed_out",
            message=f"exceeded the {profile} profile's time limit of {limit:.0f} s",
        )
        return "timed_out"
    if code != 0:
        what = "the build failed" if code == BUILD_FAILED else f"the driver exited with code {code}"
        api.report(run_id, status="failed", message=f"{what}; see the log")
        return "failed"
    return _upload(run_id, out / "result.json", sha, api=api)


def _upload(run_id: int, path: Path, sha: str | None, *, api: AgentApi) -> str:
    try:
        document = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        api.report(run_id, status="failed", message=f"no usable result document: {exc}")
        return "failed"
    api.report(run_id, status="uploading")
    document.setdefault("run", {})
    document["run"]["id"] = run_id
    document["run"].setdefault("external_id", f"queued-run-{run_id}")
    if sha:
        document["run"]["commit"] = sha
    try:
        api.upload(document)
    except ApiError as exc:
        current = api.run(run_id)
        if current["status"] in ("completed", "cancelled", "failed", "timed_out"):
            return str(current["status"])
        if current.get("cancel_requested"):
            api.report(run_id, status="cancelled", message="cancelled before the upload")
            return "cancelled"
        api.report(run_id, status="failed", message=f"upload refused: {exc}")
        return "failed"
    return "completed"
