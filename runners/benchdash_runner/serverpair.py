"""Server/client benchmarks: free ports, CPU pinning, servers that are ready before the client
runs and stopped, with everything else they started, on every way out (error, SIGTERM,
KeyboardInterrupt).

    cpus = serverpair.cpu_split(server_cpus=1)
    specs = [serverpair.ServerSpec(name="ours", cmd=cpus.server([binary, "--port", "0"]),
                                   log_path=out / "ours.log", port_pattern=r"port (\\d+)")]
    with serverpair.serve(drv, specs=specs) as servers:
        code, text = drv.run(cpus.client(["wrk", servers["ours"].url]))
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from benchdash_runner import procstat
from benchdash_runner.processes import Processes

T = TypeVar("T")

LOOPBACK = "127.0.0.1"


class ServerNotReady(RuntimeError):
    """A server that exited, or did not listen in time; the message ends with its log's tail."""


class ServerGone(RuntimeError):
    """The sampled server ended while a client ran against it."""


def free_port(*, host: str = LOOPBACK) -> int:
    """A TCP port that was free a moment ago on `host`."""
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


# Pins itself, then becomes the command (same pid): where taskset is missing.
_SET_AFFINITY = (
    "import os, sys; os.sched_setaffinity(0, {int(c) for c in sys.argv[1].split(',')}); "
    "os.execvp(sys.argv[2], sys.argv[2:])"
)


@dataclass(frozen=True, kw_only=True)
class CpuSplit:
    """CPUs for the servers and for the client, as lists ("0", "1,2,3"), and how commands are
    pinned to them (`taskset`, else `sched_setaffinity`); CPUs None when pinning is off or
    impossible (one CPU)."""

    server_cpus: str | None = None
    client_cpus: str | None = None
    how: str = "taskset"

    @property
    def pinned(self) -> bool:
        """Whether the two sides run on CPUs of their own."""
        return self.server_cpus is not None and self.client_cpus is not None

    def server(self, cmd: Sequence[str]) -> list[str]:
        """`cmd` pinned to the servers' CPUs (unchanged without pinning)."""
        return self._pin(self.server_cpus, cmd)

    def client(self, cmd: Sequence[str]) -> list[str]:
        """`cmd` pinned to the client's CPUs (unchanged without pinning)."""
        return self._pin(self.client_cpus, cmd)

    def _pin(self, cpus: str | None, cmd: Sequence[str]) -> list[str]:
        if cpus is None:
            return list(cmd)
        if self.how == "taskset":
            return ["taskset", "-c", cpus, *cmd]
        return [sys.executable, "-c", _SET_AFFINITY, cpus, *cmd]


def cpu_split(
    *, server_cpus: int | None = None, enabled: bool = True, cpus: Sequence[int] | None = None
) -> CpuSplit:
    """Split the CPUs this process may use (`os.sched_getaffinity`, or `cpus`): the first
    `server_cpus` of them (default: half, rounded down) for the servers, the rest for the
    client. No pinning when `enabled` is false, with fewer than two CPUs, or with neither
    taskset nor `os.sched_setaffinity`; with two CPUs each side gets one."""
    available = sorted(cpus if cpus is not None else _affinity())
    how = "taskset" if shutil.which("taskset") else "sched_setaffinity"
    if how != "taskset" and not hasattr(os, "sched_setaffinity"):
        enabled = False
    if not enabled or len(available) < 2:
        return CpuSplit()
    n = len(available) // 2 if server_cpus is None else server_cpus
    n = min(max(n, 1), len(available) - 1)
    join = ",".join
    return CpuSplit(
        server_cpus=join(map(str, available[:n])),
        client_cpus=join(map(str, available[n:])),
        how=how,
    )


def _affinity() -> list[int]:
    if hasattr(os, "sched_getaffinity"):
        return sorted(os.sched_getaffinity(0))
    return list(range(os.cpu_count() or 1))


@dataclass(frozen=True, kw_only=True)
class ServerSpec:
    """How to start one server and know it listens: a fixed `port` (ready once it accepts a
    connection), or the port its log prints once listening (`port_pattern`, a regex whose first
    group is the port: ready when the line appears, no connection made); `host` is its address."""

    name: str
    cmd: Sequence[str]
    log_path: Path
    port: int | None = None
    port_pattern: str | None = None
    host: str = LOOPBACK
    cwd: Path | None = None
    ready_timeout_s: float = 15.0


@dataclass(frozen=True, kw_only=True)
class Server:
    """A server that listens: its process id (to sample it), port and log."""

    name: str
    pid: int
    host: str
    port: int
    log_path: Path

    @property
    def url(self) -> str:
        """`http://host:port` (no trailing slash)."""
        return f"http://{self.host}:{self.port}"


def log_tail(path: Path, chars: int = 800) -> str:
    """The end of a log file ('' when there is none yet)."""
    return path.read_text(errors="replace")[-chars:] if path.exists() else ""


def wait_ready(*, spec: ServerSpec, child: subprocess.Popen[str]) -> int:
    """Wait until the server listens (see ServerSpec); return its port. ServerNotReady if it
    exits or does not listen within `spec.ready_timeout_s`."""
    if (spec.port is None) == (spec.port_pattern is None):
        raise ValueError(f"{spec.name}: give exactly one of port and port_pattern")
    deadline = time.monotonic() + spec.ready_timeout_s
    while time.monotonic() < deadline and child.poll() is None:
        if spec.port_pattern is not None:
            found = re.search(spec.port_pattern, log_tail(spec.log_path, 1 << 16))
            if found:
                return int(found.group(1))
        elif spec.port is not None and _accepts(spec.host, spec.port):
            return spec.port
        time.sleep(0.05)
    code = child.poll()
    why = f"exited with code {code}" if code is not None else "did not listen in time"
    raise ServerNotReady(f"{spec.name} {why}: {log_tail(spec.log_path).strip()}")


def _accepts(host: str, port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=1):
        return True
    return False


@contextlib.contextmanager
def serve(procs: Processes, *, specs: Sequence[ServerSpec]) -> Iterator[dict[str, Server]]:
    """Start every server of `specs` (in order), wait until each listens, and yield them by
    name; on leaving the block (normally, on an error or an interrupt, or when one does not
    start) every one of them is stopped with its whole process group."""
    with contextlib.ExitStack() as stack:
        servers: dict[str, Server] = {}
        for spec in specs:
            spec.log_path.parent.mkdir(parents=True, exist_ok=True)
            child = stack.enter_context(
                procs.background(spec.cmd, cwd=spec.cwd, log_path=spec.log_path)
            )
            port = wait_ready(spec=spec, child=child)
            servers[spec.name] = Server(
                name=spec.name, pid=child.pid, host=spec.host, port=port, log_path=spec.log_path
            )
        yield servers


@dataclass(frozen=True, kw_only=True)
class ClientRun:
    """A client's exit code and output, and what the sampled server used meanwhile."""

    code: int
    output: str
    resources: dict[str, float] | None = None


def run_client(
    procs: Processes, *, cmd: Sequence[str], cwd: Path | None = None, sample: Server | None = None
) -> ClientRun:
    """Run a client to its end (quietly); with `sample`, that server's /proc figures over the
    run (`procstat.Sampler`). ServerGone when the sampled server ended meanwhile."""
    if sample is None:
        code, output = procs.run(cmd, cwd=cwd, echo=False)
        return ClientRun(code=code, output=output)
    try:
        with procstat.Sampler(pid=sample.pid) as sampler:
            code, output = procs.run(cmd, cwd=cwd, echo=False)
    except OSError as exc:
        raise ServerGone(f"{sample.name} (pid {sample.pid}) ended: {exc}") from None
    return ClientRun(code=code, output=output, resources=sampler.resources())


def alternate(items: Sequence[T], *, round_no: int) -> list[T]:
    """`items` in order in even rounds (0, 2, ...) and reversed in odd ones, so that a server
    and its reference take turns going first."""
    return list(items) if round_no % 2 == 0 else list(reversed(items))
