"""uvhttp's instrumented profile: performance_test under Valgrind's Callgrind.

wrk cannot send an exact number of requests, so `send` is a tiny HTTP/1.1 client: `requests`
requests spread evenly over `connections` keep-alive connections used one after the other,
each request sent after the previous response was read in full (Content-Length), every
response checked for its status. Per scenario the server starts under Callgrind (cache
simulation on), a warm-up of `warmup` requests is sent, the counters are zeroed, exactly
`requests` requests are sent and the counters are dumped (benchdash_runner.instrumented;
the functions in `exclude`, the housekeeping timer's callback, are not counted):
`instructions_per_request`, `estimated_cycles_per_request` and, with `attach_profiles`, the
server's profile over those requests. Standard library + benchdash_runner only: the driver
and cv.py import it.
"""

from __future__ import annotations

import socket
import time
from pathlib import Path
from typing import Any

import uvhttp_bench as bench

from benchdash_runner import driving, instrumented
from benchdash_runner.processes import Processes
from benchdash_runner.serverpair import ServerSpec

LISTENING = r"listening on http://127\.0\.0\.1:(\d+)"


def request_bytes(scenario: bench.Scenario) -> bytes:
    """The one request a scenario repeats (the body wrk's script sends for POST/PUT/PATCH)."""
    body = bench.POST_BODY.encode() if scenario.body else b""
    head = f"{scenario.method} {scenario.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if body:
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return (head + "\r\n").encode() + body


def _response(sock: socket.socket, buf: bytearray, head_only: bool) -> int:
    """Read one response from `sock` (leftovers stay in `buf`); its status code."""
    while b"\r\n\r\n" not in buf:
        chunk = sock.recv(65536)
        if not chunk:
            raise ValueError("the server closed the connection mid-response")
        buf += chunk
    end = buf.index(b"\r\n\r\n") + 4
    lines = bytes(buf[:end]).decode("latin-1").split("\r\n")
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    total = end + (0 if head_only else length)
    while len(buf) < total:
        chunk = sock.recv(65536)
        if not chunk:
            raise ValueError("the server closed the connection mid-body")
        buf += chunk
    del buf[:total]
    return int(lines[0].split()[1])


def send(port: int, scenario: bench.Scenario, requests: int, connections: int) -> float:
    """Send exactly `requests` requests; seconds taken. ValueError on an unexpected status."""
    payload, t0 = request_bytes(scenario), time.perf_counter()
    for c in range(connections):
        count = requests // connections + (c < requests % connections)
        with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            buf = bytearray()
            for _ in range(count):
                sock.sendall(payload)
                status = _response(sock, buf, scenario.method == "HEAD")
                if (status >= 400) != scenario.expect_errors:
                    raise ValueError(f"{scenario.method} {scenario.path}: status {status}")
    return time.perf_counter() - t0


def server_spec(binary: Path, out: Path, name: str, *, under: list[str]) -> ServerSpec:
    """performance_test on port 0 (prefixed by `under`, e.g. the Callgrind wrapper)."""
    cmd = [*under, str(binary), "--port", "0", "--max-requests", str(bench.MAX_REQUESTS)]
    return ServerSpec(
        name=name, cmd=cmd, log_path=out / f"{name}.log", port_pattern=LISTENING,
        ready_timeout_s=120.0,
    )  # fmt: skip


def counted(
    procs: Processes, binary: Path, out: Path, name: str, params: dict[str, Any], *, profile: bool
) -> dict[str, Any]:
    """One instrumented measurement of scenario `name`: metrics per request, profile if asked."""
    scenario, cg_dir = bench.SCENARIOS[name], out / "callgrind"
    under = instrumented.wrap([], cg_dir, exclude=params.get("exclude", ()))
    spec = server_spec(binary, out, "uvhttp-callgrind", under=under)
    requests, conns = int(params["requests"]), int(params["connections"])
    return instrumented.counted(
        procs,
        spec,
        cg_dir,
        warm=lambda port: send(port, scenario, int(params.get("warmup", 100)), 1),
        drive=lambda port: send(port, scenario, requests, conns),
        requests=requests,
        profile=profile,
    )


def parameters(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """The document's parameters of an instrumented scenario."""
    scenario = bench.SCENARIOS[name]
    shown = {"connections": params["connections"], "requests": params["requests"]}
    if params.get("exclude"):
        shown["not_counted"] = ",".join(params["exclude"])
    return {**shown, "path": scenario.path, "method": scenario.method}


def run(drv: driving.Driver, binary: Path) -> list[dict[str, Any]]:
    """Every scenario of the profile once, in order; a result per scenario."""

    def one(
        name: str, params: dict[str, Any], out: Path, attach: bool
    ) -> tuple[str, dict[str, Any], dict[str, Any]]:
        found = counted(drv, binary, out, name, params, profile=attach)
        return bench.SCENARIOS[name].benchmark, parameters(name, params), found

    return instrumented.run_scenarios(drv, one, unit="request")
