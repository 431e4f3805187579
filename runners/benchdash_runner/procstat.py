"""A process's resources while a client loads it, from /proc: CPU time, resident memory,
context switches and read/write system calls (Linux only; io is None where the kernel hides it).

    with procstat.Sampler(pid=server.pid) as sampler:
        drv.run(client_cmd)
    sampler.resources()  # cpu_usage_percent, memory_usage_mb, context_switches_per_sec, ...
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

CLK_TCK = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True, kw_only=True)
class Snapshot:
    """Counters of one process at one moment."""

    t: float
    cpu_ticks: int
    voluntary: int
    involuntary: int
    rw_syscalls: int | None
    rss_kib: int


def snapshot(*, pid: int, proc: Path = Path("/proc")) -> Snapshot:
    """Read /proc/PID/{stat,status,io}; io is None where the kernel hides it. An OSError when
    the process is gone (or a zombie)."""
    stat = (proc / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    if stat[0] in ("Z", "X"):  # ended, not yet reaped by its parent
        raise ProcessLookupError(f"process {pid} has ended")
    status = {}
    for line in (proc / str(pid) / "status").read_text().splitlines():
        key, _, value = line.partition(":")
        status[key] = value.split()[0] if value.split() else "0"
    try:
        io = dict(line.split(": ") for line in (proc / str(pid) / "io").read_text().splitlines())
        rw: int | None = int(io["syscr"]) + int(io["syscw"])
    except (OSError, KeyError, ValueError):
        rw = None
    return Snapshot(
        t=time.monotonic(),
        cpu_ticks=int(stat[11]) + int(stat[12]),  # utime + stime
        voluntary=int(status.get("voluntary_ctxt_switches", 0)),
        involuntary=int(status.get("nonvoluntary_ctxt_switches", 0)),
        rw_syscalls=rw,
        rss_kib=int(status.get("VmRSS", 0)),
    )


def resources(*, start: Snapshot, end: Snapshot, rss_kib: list[int]) -> dict[str, float]:
    """What the process used between two snapshots (`rss_kib`: RSS samples in between; their
    mean is the memory figure, else the end's RSS); the keys are the uvhttp seed record's."""
    wall = max(end.t - start.t, 1e-6)
    cpu_s = (end.cpu_ticks - start.cpu_ticks) / CLK_TCK
    vol = (end.voluntary - start.voluntary) / wall
    invol = (end.involuntary - start.involuntary) / wall
    out = {
        "cpu_usage_percent": 100 * cpu_s / wall,
        "cpu_seconds": cpu_s,
        "memory_usage_mb": (sum(rss_kib) / len(rss_kib) if rss_kib else end.rss_kib) / 1024,
        "context_switches_per_sec": vol + invol,
        "voluntary_context_switches_per_sec": vol,
        "involuntary_context_switches_per_sec": invol,
    }
    if start.rw_syscalls is not None and end.rw_syscalls is not None:
        out["system_calls_per_sec"] = (end.rw_syscalls - start.rw_syscalls) / wall
    return out


@dataclass(kw_only=True)
class Sampler:
    """Snapshots of a process around a block, and its RSS every `every` seconds inside it."""

    pid: int
    every: float = 0.1
    start: Snapshot | None = None
    end: Snapshot | None = None
    rss_kib: list[int] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def __enter__(self) -> Sampler:
        self.start = snapshot(pid=self.pid)
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if exc_type is None:  # OSError here: the process is gone
            self.end = snapshot(pid=self.pid)

    def _loop(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.rss_kib.append(snapshot(pid=self.pid).rss_kib)
            except OSError:
                return

    def resources(self) -> dict[str, float]:
        """The resources block of the sampled block."""
        assert self.start is not None and self.end is not None
        return resources(start=self.start, end=self.end, rss_kib=self.rss_kib)


def busy_note() -> str:
    """A note for a log line when other work loads the machine (its figures are then noisy)."""
    load, cpus = os.getloadavg()[0], os.cpu_count() or 1
    return f" (machine busy: load {load:.1f} on {cpus} CPUs)" if load > 1.5 * cpus else ""
