"""The uvhttp benchmark's scenarios, wrk runs and /proc sampling (seed standard §5.4, §6.1).

Standard library only: the driver imports this module beside it.
"""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPORT_PREFIX = "##uvhttp-wrk "
POST_BODY = '{"test":"data"}'
CLK_TCK = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Scenario:
    """One wrk workload: its manifest name, the document's benchmark and the request."""

    name: str
    benchmark: str
    threads: int
    connections: int
    path: str = "/"
    method: str = "GET"
    body: bool = False
    expect_errors: bool = False  # every response is 4xx/5xx by design (the error scenarios)
    reference: bool = False  # nginx serves the same request: run it alongside
    basic: bool = False  # the seed's basic scenarios (more repetitions than extended ones)

    def parameters(self, duration_s: float) -> dict[str, Any]:
        """The document's parameters (the demo's keys for the basic scenarios)."""
        params: dict[str, Any] = {
            "threads": self.threads,
            "connections": self.connections,
            "duration_s": duration_s,
        }
        if self.benchmark in ("response_size", "method", "error"):
            params["path"] = self.path
        if self.benchmark == "method":
            params["method"] = self.method
        return params


def _scenarios() -> dict[str, Scenario]:
    out: dict[str, Scenario] = {}
    for name, threads, conns in (
        ("low_concurrency", 2, 10),
        ("medium_concurrency", 4, 50),
        ("high_concurrency", 8, 200),
    ):
        out[name] = Scenario(name, name, threads, conns, reference=True, basic=True)
    for threads in (1, 2, 4, 8, 16):
        name = f"thread_sweep/{threads}"
        out[name] = Scenario(name, "thread_sweep", threads, 50, reference=True)
    for size, path in (("small", "/small"), ("medium", "/medium"), ("large", "/large")):
        out[f"response_size/{size}"] = Scenario(
            f"response_size/{size}", "response_size", 4, 50, path
        )
    out["response_size/1mb"] = Scenario("response_size/1mb", "response_size", 4, 50, "/large/1mb")
    for method, path, body in (
        ("post", "/api", True),
        ("put", "/api/put", True),
        ("patch", "/api/patch", True),
        ("delete", "/api/delete", False),
        ("head", "/api/head", False),
        ("options", "/api/options", False),
    ):
        name = f"method/{method}"
        out[name] = Scenario(name, "method", 4, 50, path, method.upper(), body)
    for kind in ("notfound", "badrequest", "server", "ratelimit"):
        name = f"error/{kind}"
        out[name] = Scenario(name, "error", 4, 50, f"/error/{kind}", expect_errors=True)
    return out


SCENARIOS = _scenarios()


def lua_script(scenario: Scenario, report_lua: str) -> str:
    """The wrk script of a scenario: its method and body, then the report hook."""
    lines = []
    if scenario.method != "GET":
        lines.append(f'wrk.method = "{scenario.method}"')
    if scenario.body:
        lines.append(f"wrk.body = '{POST_BODY}'")
        lines.append('wrk.headers["Content-Type"] = "application/json"')
    return "\n".join([*lines, report_lua])


def wrk_command(scenario: Scenario, duration_s: float, script: Path, url: str) -> list[str]:
    """The wrk command line of one run."""
    return [
        "wrk",
        f"-t{scenario.threads}",
        f"-c{scenario.connections}",
        f"-d{duration_s:g}s",
        "--timeout",
        "10s",
        "-s",
        str(script),
        url,
    ]


def parse_report(output: str) -> dict[str, Any]:
    """The JSON line the report hook printed; ValueError naming what is wrong otherwise."""
    lines = [line for line in output.splitlines() if line.startswith(REPORT_PREFIX)]
    if not lines:
        tail = "\n".join(output.splitlines()[-5:])
        raise ValueError(
            f"wrk printed no {REPORT_PREFIX.strip()} line (not the report hook?):\n{tail}"
        )
    try:
        report: dict[str, Any] = json.loads(lines[-1][len(REPORT_PREFIX) :])
        latency, errors = report["latency_us"], report["errors"]
        for key in ("duration_us", "requests", "bytes"):
            float(report[key])
        for key in ("50", "95", "99", "99.9"):
            float(latency["percentiles"][key])
        float(latency["mean"])
        sum(int(errors[k]) for k in ("connect", "read", "write", "timeout", "status"))
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"unreadable wrk report line: {exc!r}: {lines[-1][:200]}") from None
    if report["duration_us"] <= 0:
        raise ValueError("wrk report: duration is zero")
    return report


def summarise(report: dict[str, Any]) -> dict[str, float]:
    """The seed record's `results` block (§6.2) from a report line; times in ms."""
    seconds = report["duration_us"] / 1e6
    latency, errors = report["latency_us"], report["errors"]
    pct = latency["percentiles"]
    return {
        "total_requests": report["requests"],
        "requests_per_second": report["requests"] / seconds,
        "latency_avg_ms": latency["mean"] / 1000,
        "latency_p50_ms": pct["50"] / 1000,
        "latency_p95_ms": pct["95"] / 1000,
        "latency_p99_ms": pct["99"] / 1000,
        "latency_p999_ms": pct["99.9"] / 1000,
        "transfer_rate_mbps": report["bytes"] / seconds / 1024**2,
        "socket_errors": sum(errors[k] for k in ("connect", "read", "write", "timeout")),
        "non_2xx_responses": errors["status"],
    }


# -- /proc sampling -----------------------------------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    """Counters of one process at one moment."""

    t: float
    cpu_ticks: int
    voluntary: int
    involuntary: int
    rw_syscalls: int | None
    rss_kib: int


def snapshot(pid: int, proc: Path = Path("/proc")) -> Snapshot:
    """Read /proc/PID/{stat,status,io}; io is None where the kernel hides it."""
    stat = (proc / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
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


def resources(start: Snapshot, end: Snapshot, rss_kib: list[int]) -> dict[str, float]:
    """The seed record's `resources` block (§6.2) between two snapshots."""
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


@dataclass
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
        self.start = snapshot(self.pid)
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if exc_type is None:  # OSError here: the process is gone
            self.end = snapshot(self.pid)

    def _loop(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.rss_kib.append(snapshot(self.pid).rss_kib)
            except OSError:
                return

    def resources(self) -> dict[str, float]:
        """The resources block of the sampled block."""
        assert self.start is not None and self.end is not None
        return resources(self.start, self.end, self.rss_kib)
