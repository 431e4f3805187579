#!/usr/bin/env python3
"""Bench driver of galay-ssl: build (Release + LTO), run the TLS echo scenarios, emit benchdash/v1.

    runners/galay-ssl/driver.py --profile quick|standard|full --out DIR [--benchmarks a,b]

Each scenario starts both servers (B1-SslBenchServer and the OpenSSL + libevent reference
R1-LibeventSslServer) pinned to one half of the CPUs; every round then runs each pair's
client, pinned to the other half, alternating which pair goes first. Ours is reported under
the scenario's name, the reference as `libevent_reference` (parameter `scenario`), and
`qps_ratio` is ours over the reference's QPS in the same round (runners/CONTRACT.md).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

from benchdash_runner import driving

PAIRS = {
    "galay-ssl": ("B1-SslBenchServer", "B1-SslBenchClient"),
    "libevent": ("R1-LibeventSslServer", "R1-LibeventSslClient"),
}
REFERENCE_BENCHMARK = "libevent_reference"
H, L = "higher_is_better", "lower_is_better"
METRICS = (
    ("qps", "req/s", H),
    ("throughput", "MiB/s", H),
    ("duration_ms", "ms", L),
    ("errors", "errors", L),
    ("requests", "requests", H),
)
# Report label -> key (bench/bench_common.cc prints them; Duration us is the precise duration).
FIELDS = {
    "Total requests": "requests",
    "Total errors": "errors",
    "Requests/sec": "qps",
    "Throughput": "throughput",
    "Duration us": "duration_us",
}
LISTENING = re.compile(r"listening on port (\d+)")


def parse_report(text: str) -> dict[str, float]:
    """The numbers of a client's `Label: value` report; ValueError naming what is missing."""
    values: dict[str, float] = {}
    for line in text.splitlines():
        label, sep, rest = line.partition(": ")
        if sep and label in FIELDS and rest.split():
            values[FIELDS[label]] = float(rest.split()[0])
    missing = [label for label, key in FIELDS.items() if key not in values]
    if missing:
        raise ValueError(f"the client report lacks {', '.join(missing)}")
    values["duration_ms"] = values.pop("duration_us") / 1000.0
    return values


def negotiated(text: str) -> str | None:
    """The `TLS:` line of a report (protocol and cipher of one connection)."""
    found = re.search(r"^TLS: (.+)$", text, re.M)
    return found.group(1).strip() if found else None


def split_cpus(cpus: list[int]) -> tuple[str, str] | None:
    """Server and client CPU lists for taskset (first half, the rest); None with < 2 CPUs."""
    cpus = sorted(cpus)
    if len(cpus) < 2:
        return None
    half = len(cpus) // 2
    return ",".join(map(str, cpus[:half])), ",".join(map(str, cpus[half:]))


def result(name: str, params: dict[str, Any], rounds: list[dict[str, float]]) -> dict[str, Any]:
    """One benchmark of the document: a sample per round for every metric."""
    metrics = [
        {"name": m, "unit": unit, "direction": d, "samples": [r[m] for r in rounds]}
        for m, unit, d in METRICS
    ]
    return {"benchmark": name, "parameters": params, "metrics": metrics}


def qps_ratio(ours: list[dict[str, float]], ref: list[dict[str, float]]) -> dict[str, Any] | None:
    """Ours over the reference's QPS, round by round (rounds where the reference did nothing
    are left out); None when no round can be compared."""
    samples = [o["qps"] / r["qps"] for o, r in zip(ours, ref, strict=True) if r["qps"] > 0]
    if not samples:
        return None
    return {"name": "qps_ratio", "unit": "x", "direction": H, "samples": samples}


def tool_version(cmd: list[str]) -> str | None:
    """First line printed by `cmd`, or None when it cannot run."""
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip().splitlines()[0] if out.stdout.strip() else None


class Bench:
    """The built binaries, the CPU split and the driver that runs them."""

    def __init__(self, drv: driving.Driver, build: Path) -> None:
        self.drv, self.build = drv, build
        self.cpus = split_cpus(sorted(os.sched_getaffinity(0))) if shutil.which("taskset") else None
        self.tls: str | None = None

    def pinned(self, side: int, cmd: list[str]) -> list[str]:
        """`cmd` under taskset on the server (0) or client (1) CPUs, when pinning is possible."""
        return ["taskset", "-c", self.cpus[side], *cmd] if self.cpus else cmd

    def start_server(self, stack: contextlib.ExitStack, impl: str) -> int:
        """Start `impl`'s server for the stack's lifetime; return the port it listens on."""
        log = self.drv.out / f"{impl}-server.log"
        binary = str(self.build / "bin" / PAIRS[impl][0])
        cmd = self.pinned(0, [binary, "0", "certs/server.crt", "certs/server.key"])
        # Registered first, so it runs after the server was stopped and printed its totals.
        stack.callback(lambda: driving.log(f"{impl} server: {server_totals(log)}"))
        child = stack.enter_context(self.drv.background(cmd, cwd=self.build, log_path=log))
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            found = LISTENING.search(log.read_text())
            if found:
                return int(found.group(1))
            if child.poll() is not None:
                break
            time.sleep(0.05)
        self.drv.fail(f"{PAIRS[impl][0]} did not start: {log.read_text().strip()}")

    def run_client(self, impl: str, port: int, params: dict[str, Any]) -> dict[str, float]:
        """One client run against `port`; its report's numbers."""
        args = [str(params[k]) for k in ("connections", "requests", "payload", "threads")]
        binary = str(self.build / "bin" / PAIRS[impl][1])
        cmd = self.pinned(1, [binary, "127.0.0.1", str(port), *args])
        code, out = self.drv.run(cmd, cwd=self.build, echo=False)
        try:
            if code not in (0, 1):  # 1: the run completed with errors, which are reported
                raise ValueError(f"exit code {code}")
            values = parse_report(out)
        except ValueError as exc:
            driving.log(out)
            self.drv.fail(f"{PAIRS[impl][1]} {' '.join(args)}: {exc}")
        self.tls = self.tls or negotiated(out)
        return values


def server_totals(log: Path) -> str:
    """The server's `Final stats` as one line."""
    lines = log.read_text().splitlines() if log.exists() else []
    if "Final stats:" not in lines:
        return "no final stats"
    return ", ".join(lines[lines.index("Final stats:") + 1 :])


def run_scenario(bench: Bench, name: str, params: dict[str, Any], total: int) -> list[Any]:
    """Every round of one scenario with both pairs; our result and the reference's."""
    reps = int(bench.drv.profile["repetitions"])
    rounds: dict[str, list[dict[str, float]]] = {impl: [] for impl in PAIRS}
    with contextlib.ExitStack() as stack:
        ports = {impl: bench.start_server(stack, impl) for impl in PAIRS}
        for r in range(reps):
            bench.drv.progress(f"{name} round {r + 1}/{reps}", total=total)
            order = list(PAIRS) if r % 2 == 0 else list(reversed(PAIRS))
            for impl in order:
                v = bench.run_client(impl, ports[impl], params)
                rounds[impl].append(v)
                driving.log(
                    f"  {impl:9} {v['qps']:10.0f} req/s {v['throughput']:9.2f} MiB/s "
                    f"{v['duration_ms']:9.1f} ms {int(v['errors'])} errors"
                )
    ours = result(name, params, rounds["galay-ssl"])
    ratio = qps_ratio(rounds["galay-ssl"], rounds["libevent"])
    if ratio:
        ours["metrics"].append(ratio)
        mean = sum(ratio["samples"]) / len(ratio["samples"])
        driving.log(f"{name}: galay-ssl / libevent QPS = {mean:.3f} (mean of {reps} rounds)")
    ref = result(REFERENCE_BENCHMARK, {"scenario": name, **params}, rounds["libevent"])
    return [ours, ref]


def build(drv: driving.Driver) -> Path:
    """Configure and build Release + LTO (tests off) under the system's build/bench."""
    out = drv.system_dir / "build" / "bench"
    cache = out / "CMakeCache.txt"
    if (
        cache.exists()
        and f"CMAKE_HOME_DIRECTORY:INTERNAL={drv.system_dir}" not in cache.read_text()
    ):
        shutil.rmtree(out)  # configured for another checkout
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    flags = ["-DCMAKE_BUILD_TYPE=Release", "-DENABLE_LTO=ON", "-DGALAY_SSL_BUILD_TESTS=OFF"]
    drv.build(["cmake", "-S", str(drv.system_dir), "-B", str(out), *generator, *flags])
    drv.build(["cmake", "--build", str(out), "-j", str(os.cpu_count() or 2)])
    return out


def main() -> int:
    """Build, run the selected scenarios of the profile, write the document."""
    drv, _args = driving.start(Path(__file__).with_name("runner.toml"))
    drv.phase("building")
    bench = Bench(drv, build(drv))
    drv.phase("running")
    parameters = drv.profile["parameters"]
    total = len(drv.scenarios) * int(drv.profile["repetitions"])
    results: list[Any] = []
    for name in drv.scenarios:
        results += run_scenario(bench, name, dict(parameters[name]), total)
    gxx = tool_version(["g++", "-dumpfullversion"])
    drv.finish(
        results,
        compiler="GCC",
        compiler_version=gxx,
        configuration={
            "build_type": "Release",
            "lto": True,
            "tls": bench.tls,
            "certificate": "EC P-256, generated at build time",
            "openssl": tool_version(["openssl", "version"]),
            "libevent": tool_version(["pkg-config", "--modversion", "libevent_openssl"]),
            "reference": "OpenSSL + libevent bufferevent_openssl echo pair",
            "server_cpus": bench.cpus[0] if bench.cpus else "any",
            "client_cpus": bench.cpus[1] if bench.cpus else "any",
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
