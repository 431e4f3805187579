#!/usr/bin/env python3
"""Bench driver of galay-ssl: build (Release + LTO), run the TLS echo scenarios, emit benchdash/v1.

    runners/galay-ssl/driver.py --profile quick|standard|full --out DIR [--benchmarks a,b]

Each scenario starts both servers (B1-SslBenchServer and the OpenSSL + libevent reference
R1-LibeventSslServer) pinned to one half of the CPUs; every round then runs each pair's
client, pinned to the other half, alternating which pair goes first. Ours is reported under
the scenario's name, the reference as `libevent_reference` (parameter `scenario`), and
`qps_ratio` is ours over the reference's QPS in the same round (runners/CONTRACT.md).

A profile with `harness = "callgrind"` (`instructions`) runs the server under Valgrind's
Callgrind instead and reports instructions per round trip (galay_instructions.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import galay_instructions
import galay_report as report

from benchdash_runner import driving, serverpair, toolinfo
from benchdash_runner.serverpair import ServerSpec

PAIRS = {
    "galay-ssl": ("B1-SslBenchServer", "B1-SslBenchClient"),
    "libevent": ("R1-LibeventSslServer", "R1-LibeventSslClient"),
}
LISTENING = r"listening on port (\d+)"


class Bench:
    """The built binaries, the CPU split and the driver that runs them."""

    def __init__(self, drv: driving.Driver, build: Path) -> None:
        self.drv, self.build = drv, build
        self.cpus = serverpair.cpu_split()
        self.tls: str | None = None

    def server(self, impl: str) -> ServerSpec:
        """How `impl`'s server starts (on port 0: it prints the port it listens on)."""
        binary = str(self.build / "bin" / PAIRS[impl][0])
        cmd = self.cpus.server([binary, "0", "certs/server.crt", "certs/server.key"])
        log = self.drv.out / f"{impl}-server.log"
        return ServerSpec(name=impl, cmd=cmd, log_path=log, port_pattern=LISTENING, cwd=self.build)

    def run_client(self, impl: str, port: int, params: dict[str, Any]) -> dict[str, float]:
        """One client run against `port`; its report's numbers."""
        args = [str(params[k]) for k in ("connections", "requests", "payload", "threads")]
        cmd = self.cpus.client(
            [str(self.build / "bin" / PAIRS[impl][1]), "127.0.0.1", str(port), *args]
        )
        run = serverpair.run_client(self.drv, cmd=cmd, cwd=self.build)
        try:
            if run.code not in (0, 1):  # 1: the run completed with errors, which are reported
                raise ValueError(f"exit code {run.code}")
            values = report.parse_report(run.output)
        except ValueError as exc:
            driving.log(run.output)
            self.drv.fail(f"{PAIRS[impl][1]} {' '.join(args)}: {exc}")
        self.tls = self.tls or report.negotiated(run.output)
        return values


def run_scenario(bench: Bench, name: str, params: dict[str, Any], total: int) -> list[Any]:
    """Every round of one scenario with both pairs; our result and the reference's."""
    reps = int(bench.drv.profile["repetitions"])
    rounds: dict[str, list[dict[str, float]]] = {impl: [] for impl in PAIRS}
    try:
        with serverpair.serve(bench.drv, specs=[bench.server(i) for i in PAIRS]) as up:
            for r in range(reps):
                bench.drv.progress(f"{name} round {r + 1}/{reps}", total=total)
                for impl in serverpair.alternate(list(PAIRS), round_no=r):
                    v = bench.run_client(impl, up[impl].port, params)
                    rounds[impl].append(v)
                    driving.log(
                        f"  {impl:9} {v['qps']:10.0f} req/s {v['throughput']:9.2f} MiB/s "
                        f"{v['duration_ms']:9.1f} ms {int(v['errors'])} errors"
                    )
    except serverpair.ServerNotReady as exc:
        bench.drv.fail(str(exc))
    finally:  # the servers stopped: their totals
        for impl in PAIRS:
            totals = report.server_totals(bench.drv.out / f"{impl}-server.log")
            driving.log(f"{impl} server: {totals}")
    ours = report.result(name, params, rounds["galay-ssl"])
    ratio = report.qps_ratio(rounds["galay-ssl"], rounds["libevent"])
    if ratio:
        ours["metrics"].append(ratio)
        mean = sum(ratio["samples"]) / len(ratio["samples"])
        driving.log(f"{name}: galay-ssl / libevent QPS = {mean:.3f} (mean of {reps} rounds)")
    ref = report.result(
        report.REFERENCE_BENCHMARK, {"scenario": name, **params}, rounds["libevent"]
    )
    return [ours, ref]


def build(drv: driving.Driver) -> Path:
    """Configure and build Release + LTO (tests off) under the system's build/bench."""
    out = drv.system_dir / "build" / "bench"
    drv.cmake(out, ["-DCMAKE_BUILD_TYPE=Release", "-DENABLE_LTO=ON", "-DGALAY_SSL_BUILD_TESTS=OFF"])
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
    instrumented = drv.profile.get("harness") == "callgrind"
    if instrumented:
        results = galay_instructions.run(drv, bench.build)
    for name in [] if instrumented else drv.scenarios:
        results += run_scenario(bench, name, dict(parameters[name]), total)
    gxx = toolinfo.version(cmd=["g++", "-dumpfullversion"])
    callgrind = {
        "harness": "callgrind",
        "valgrind": toolinfo.version(cmd=["valgrind", "--version"]),
    }
    drv.finish(
        results,
        compiler="GCC",
        compiler_version=gxx,
        configuration={
            "build_type": "Release",
            "lto": True,
            "tls": bench.tls,
            "certificate": "EC P-256, generated at build time",
            "openssl": toolinfo.version(cmd=["openssl", "version"]),
            "libevent": toolinfo.version(cmd=["pkg-config", "--modversion", "libevent_openssl"]),
            "reference": "OpenSSL + libevent bufferevent_openssl echo pair",
            "server_cpus": bench.cpus.server_cpus or "any",
            "client_cpus": bench.cpus.client_cpus or "any",
            **(callgrind if instrumented else {}),
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
