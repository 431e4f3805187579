"""galay-ssl's instrumented profile: B1-SslBenchServer under Valgrind's Callgrind.

Per scenario the server starts under Callgrind (cache simulation on), B1-SslBenchClient runs a
warm-up (`warmup` round trips on one connection, not counted), then Callgrind's counters are
zeroed, the client makes exactly `connections` x `requests` echo round trips of `payload`
bytes (handshakes included), and the counters are dumped (benchdash_runner.instrumented). The
result: `instructions_per_request` and `estimated_cycles_per_request` (per round trip) and,
with `attach_profiles`, the server's profile over those round trips. `native` runs the same
client against the server without Valgrind: the wall-clock figures that cv.py sets beside the
counts. Standard library + benchdash_runner only: the driver and cv.py import it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import galay_report as report

from benchdash_runner import driving, instrumented, serverpair
from benchdash_runner.processes import Processes
from benchdash_runner.serverpair import ServerSpec

SERVER, CLIENT = "B1-SslBenchServer", "B1-SslBenchClient"
LISTENING = r"listening on port (\d+)"
COUNTED = ("connections", "requests", "payload", "threads")


def client(procs: Processes, build: Path, port: int, params: dict[str, Any]) -> dict[str, float]:
    """One B1-SslBenchClient run; its report. ValueError unless every round trip completed."""
    args = [str(params[k]) for k in COUNTED]
    cmd = [str(build / "bin" / CLIENT), "127.0.0.1", str(port), *args]
    run = serverpair.run_client(procs, cmd=cmd, cwd=build)
    values = report.parse_report(run.output)
    expected = int(params["connections"]) * int(params["requests"])
    if run.code != 0 or values["errors"] or values["requests"] != expected:
        raise ValueError(f"{CLIENT} {' '.join(args)}: exit {run.code}, {values}: {run.output}")
    return values


def server_spec(build: Path, out: Path, name: str, *, under: list[str]) -> ServerSpec:
    """The server on port 0 (prefixed by `under`, e.g. the Callgrind wrapper)."""
    cmd = [*under, str(build / "bin" / SERVER), "0", "certs/server.crt", "certs/server.key"]
    return ServerSpec(
        name=name, cmd=cmd, log_path=out / f"{name}.log", port_pattern=LISTENING, cwd=build,
        ready_timeout_s=120.0,
    )  # fmt: skip


def counted(
    procs: Processes, build: Path, out: Path, params: dict[str, Any], *, profile: bool
) -> dict[str, Any]:
    """One instrumented measurement: its metrics (per round trip) and, if asked, profile."""
    cg_dir = out / "callgrind"
    spec = server_spec(build, out, "galay-ssl-callgrind", under=instrumented.wrap([], cg_dir))
    warm = {**params, "connections": 1, "requests": int(params.get("warmup", 100))}
    return instrumented.counted(
        procs,
        spec,
        cg_dir,
        warm=lambda port: client(procs, build, port, warm),
        drive=lambda port: client(procs, build, port, params),
        requests=int(params["connections"]) * int(params["requests"]),
        profile=profile,
    )


def native(procs: Processes, build: Path, out: Path, params: dict[str, Any]) -> dict[str, float]:
    """The same client run against the server without Valgrind (after the same warm-up)."""
    spec = server_spec(build, out, "galay-ssl-native", under=[])
    warm = {**params, "connections": 1, "requests": int(params.get("warmup", 100))}
    with serverpair.serve(procs, specs=[spec]) as up:
        client(procs, build, up[spec.name].port, warm)
        return client(procs, build, up[spec.name].port, params)


def run(drv: driving.Driver, build: Path) -> list[dict[str, Any]]:
    """Every scenario of the profile once, in order; a result per scenario."""

    def one(
        name: str, params: dict[str, Any], out: Path, attach: bool
    ) -> tuple[str, dict[str, Any], dict[str, Any]]:
        found = counted(drv, build, out, params, profile=attach)
        return name, {k: params[k] for k in COUNTED}, found

    return instrumented.run_scenarios(drv, one, unit="round trip")
