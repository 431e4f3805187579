"""The driver as a child of the agent: its output relayed, its cancel and time limit obeyed."""

from __future__ import annotations

import contextlib
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchdash_runner.agent.api import AgentApi, ApiError

PROGRESS = re.compile(r"^##benchdash progress (\d+)/(\d+)(?: (.*))?$")
PHASE = re.compile(r"^##benchdash phase (\w+)\s*$")
MAX_BATCH = 300
# The API takes at most 1,000 lines of at most 2,000 characters per report.
MAX_LINE, MAX_LINES = 2_000, 1_000


@dataclass
class AgentSettings:
    """How this agent works: where, as whom, how often it reports."""

    repo: Path
    workdir: Path
    host_id: str
    name: str
    heartbeat_s: float = 2.0
    kill_grace_s: float = 2.0
    poll_s: float = 1.0  # the least time between two asks for work
    wait_s: float = 30.0  # how long the API may hold an ask while there is no work (long poll)
    source_url: str | None = None  # a project's source, when a claim does not name one


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


@dataclass
class Clocks:
    """A run's two time limits, each counting only while its phase lasts: the build's
    (`build_timeout_s`, from `##benchdash phase building` to `##benchdash phase running`) and
    the benchmark's (`time_limit_s`, the rest of the driver's life)."""

    build_s: float
    bench_s: float
    phase: str = "benchmark"  # or "build"
    since: float = field(default_factory=time.monotonic)
    used: dict[str, float] = field(default_factory=lambda: {"build": 0.0, "benchmark": 0.0})

    @property
    def limit_s(self) -> float:
        """The limit of the phase now running."""
        return self.build_s if self.phase == "build" else self.bench_s

    def enter(self, announced: str, now: float) -> None:
        """The driver announced a phase (`building`, `running`, …): switch clocks."""
        phase = "build" if announced == "building" else "benchmark"
        if phase != self.phase:
            self.used[self.phase] += now - self.since
            self.phase, self.since = phase, now

    def over(self, now: float) -> bool:
        """Whether the phase now running has used up its limit."""
        return self.used[self.phase] + now - self.since > self.limit_s


class Supervisor:
    """Runs the driver, relays its output and obeys cancel and the time limits."""

    def __init__(self, api: AgentApi, run_id: int, settings: AgentSettings) -> None:
        self.api = api
        self.run_id = run_id
        self.settings = settings
        self.outcome: str | None = None  # "cancelled" | "timed_out" when we killed it
        self.clocks = Clocks(build_s=0.0, bench_s=0.0)  # set by run(); phase: where it timed out

    def _reader(self, stream: Any, lines: queue.Queue[str | None]) -> None:
        for raw in stream:
            line = raw.rstrip("\n")
            lines.put(line if len(line) <= MAX_LINE else line[: MAX_LINE - 1] + "…")
        lines.put(None)

    def run(self, argv: list[str], cwd: Path, env: dict[str, str], clocks: Clocks) -> int:
        """Run to the end (or the kill); returns the exit code (127: it could not start)."""
        self.clocks = clocks
        try:
            proc = subprocess.Popen(
                argv,
                cwd=cwd,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                bufsize=1,
                start_new_session=True,
                preexec_fn=_die_with_parent,
            )
        except OSError as exc:  # e.g. the checked-out ref has no such driver
            self._safe_report(lines=[f"cannot start the driver {argv[0]!r} in {cwd}: {exc}"])
            return 127
        lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._reader, args=(proc.stdout, lines), daemon=True).start()
        clocks.since = time.monotonic()
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
                    if phase:
                        clocks.enter(phase.group(1), time.monotonic())
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
                        lines=pending[:MAX_LINES],
                        agent=self.settings.name,
                    )
                    pending, latest, status, last_report = pending[MAX_LINES:], None, None, now
                    if ack.cancel_requested and kill_at is None:
                        self.outcome, kill_at = "cancelled", self._kill(proc, signal.SIGTERM)
                except ApiError as exc:  # the API may be restarting: keep going, retry soon
                    print(f"report failed: {exc}", file=sys.stderr)
                    last_report = now
            if kill_at is None and clocks.over(now):
                self.outcome, kill_at = "timed_out", self._kill(proc, signal.SIGTERM)
            if (
                kill_at is not None
                and proc.poll() is None
                and now - kill_at > self.settings.kill_grace_s
            ):
                self._kill(proc, signal.SIGKILL)
            if eof and proc.poll() is not None:
                break
        while pending or latest:
            self._safe_report(lines=pending[:MAX_LINES], progress=latest)
            pending, latest = pending[MAX_LINES:], None
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
    """In the driver: ask Linux to SIGTERM it when the agent dies, however the agent dies.

    SIGTERM rather than SIGKILL: the contract has drivers stop their whole process groups on
    it (`driving` does), so a benchmark's own children go too, not only the driver.
    """
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)
