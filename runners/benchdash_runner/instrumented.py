"""A server under Valgrind's Callgrind: its instructions (and estimated cycles) per request over
a fixed number of requests, and its profile.

    cmd = instrumented.wrap([binary, "--port", "0"], out / "callgrind")
    with serverpair.serve(drv, specs=[ServerSpec(name="ours", cmd=cmd, ...)]) as up:
        drive(warm_up)                                   # not counted
        m = instrumented.measure(drv, up["ours"], out / "callgrind", lambda: drive(n))
        metrics = instrumented.per_request(m, n)

or all of it at once, `counted(...)` for one scenario and `run_scenarios(...)` for a profile's
scenarios in order (what the uvhttp and galay-ssl drivers do).

`measure` waits until the server is idle, zeroes Callgrind's counters (`callgrind_control
-z`), runs the client, waits until the server is idle again (the last connection's close is
counted), and dumps the counters (`callgrind_control -d`): the dump holds exactly the work the
client's requests caused, startup, warm-up and shutdown excluded. callgrind_control reaches a
server blocked in epoll_wait through Valgrind's gdbserver (vgdb, on by default).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchdash_runner import callgrind, document, driving, profiles, serverpair
from benchdash_runner.processes import Processes
from benchdash_runner.serverpair import Server, ServerSpec

PER_REQUEST = "instructions_per_request"
CYCLES_PER_REQUEST = "estimated_cycles_per_request"


class InstrumentError(RuntimeError):
    """Valgrind or callgrind_control missing, or a dump that did not appear."""


def wrap(
    cmd: Sequence[str], out_dir: Path, *, cache_sim: bool = True, exclude: Sequence[str] = ()
) -> list[str]:
    """`cmd` under Callgrind, its files in `out_dir` (callgrind.out.<pid>[.<dump>]). Functions
    in `exclude` (with all they call) are not counted (`--toggle-collect`): e.g. a timer's
    callback whose work follows the wall clock, not the requests."""
    for tool in ("valgrind", "callgrind_control"):
        if shutil.which(tool) is None:
            raise InstrumentError(f"{tool} is not installed (Debian: apt-get install valgrind)")
    out_dir.mkdir(parents=True, exist_ok=True)
    cg = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_dir}/callgrind.out.%p"]
    if exclude:  # toggling turns collection off at start unless told otherwise after it
        cg += [*(f"--toggle-collect={name}" for name in exclude), "--collect-atstart=yes"]
    return [*cg, f"--cache-sim={'yes' if cache_sim else 'no'}", *cmd]


def cpu_ticks(pid: int) -> int:
    """user + system clock ticks of a process so far (/proc/PID/stat)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat.rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def wait_idle(pid: int, *, settle_s: float = 0.3, timeout_s: float = 30.0) -> None:
    """Return once the process used no CPU for `settle_s` (or after `timeout_s`)."""
    deadline = time.monotonic() + timeout_s
    before = cpu_ticks(pid)
    while time.monotonic() < deadline:
        time.sleep(settle_s)
        now = cpu_ticks(pid)
        if now == before:
            return
        before = now


def control(procs: Processes, pid: int, flag: str) -> None:
    """Send `callgrind_control FLAG PID` (-z zero, -d dump); InstrumentError if it fails."""
    code, output = procs.run(["callgrind_control", flag, str(pid)], echo=False)
    if code != 0 or "OK" not in output:
        raise InstrumentError(f"callgrind_control {flag} {pid} failed (exit {code}): {output}")


@dataclass(frozen=True)
class Measured:
    """One counted stretch of a server's work: its dump file and the totals of every event."""

    dump: Path
    costs: dict[str, int]


def measure(
    procs: Processes, server: Server, out_dir: Path, drive: Callable[[], object]
) -> Measured:
    """Zero the counters, run `drive` (the client), dump: what the client's requests cost."""
    before = set(out_dir.glob(f"callgrind.out.{server.pid}.*"))
    wait_idle(server.pid)
    control(procs, server.pid, "-z")
    drive()
    wait_idle(server.pid)
    control(procs, server.pid, "-d")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        new = sorted(set(out_dir.glob(f"callgrind.out.{server.pid}.*")) - before)
        if new and "\ntotals:" in new[-1].read_text(errors="replace"):  # written through
            return Measured(dump=new[-1], costs=callgrind.totals(new[-1:]))
        time.sleep(0.1)
    raise InstrumentError(f"no Callgrind dump of pid {server.pid} appeared in {out_dir}")


def per_request(measured: Measured, requests: int) -> list[dict[str, Any]]:
    """`instructions_per_request` (and `estimated_cycles_per_request` with cache simulation)."""
    lower = "lower_is_better"
    found = [
        document.metric(PER_REQUEST, "instructions", lower, value=measured.costs["Ir"] / requests)
    ]
    cycles = callgrind.estimated_cycles(measured.costs)
    if cycles is not None:
        found.append(document.metric(CYCLES_PER_REQUEST, "cycles", lower, value=cycles / requests))
    return found


def profile_of(measured: Measured, *, roots: Sequence[str] = ()) -> dict[str, Any]:
    """The dump's `profile`: folded Ir stacks of all the counted requests (not per request),
    from `roots` (default `main`)."""
    stacks = profiles.folded(callgrind.read([measured.dump]), roots=roots or ("main",))
    return profiles.field(stacks, metric=PER_REQUEST)


def counted(
    procs: Processes,
    spec: ServerSpec,
    cg_dir: Path,
    *,
    warm: Callable[[int], object],
    drive: Callable[[int], object],
    requests: int,
    profile: bool,
) -> dict[str, Any]:
    """Serve `spec` (its command wrapped already, dumps into `cg_dir`), run `warm(port)` (not
    counted), then measure `drive(port)`: the metrics per request over its `requests` and, if
    asked, the profile."""
    with serverpair.serve(procs, specs=[spec]) as up:
        server = up[spec.name]
        warm(server.port)
        measured = measure(procs, server, cg_dir, lambda: drive(server.port))
    found: dict[str, Any] = {"metrics": per_request(measured, requests)}
    if profile:
        found["profile"] = profile_of(measured)
    return found


# (name, parameters, its out dir, attach a profile?) -> (benchmark, document parameters, found)
Scenario = Callable[[str, dict[str, Any], Path, bool], tuple[str, dict[str, Any], dict[str, Any]]]


def run_scenarios(drv: driving.Driver, one: Scenario, *, unit: str) -> list[dict[str, Any]]:
    """Every scenario of the profile once, in order (each measured by `one` in its own folder
    under `callgrind/`); a result per scenario. A scenario that cannot be measured ends the
    driver with its reason."""
    results = []
    attach = bool(drv.profile.get("attach_profiles"))
    for name in drv.scenarios:
        params = dict(drv.profile["parameters"][name])
        drv.progress(name, total=len(drv.scenarios))
        out = drv.out / "callgrind" / name.replace("/", "_")
        try:
            benchmark, shown, found = one(name, params, out, attach)
        except (ValueError, OSError, InstrumentError, serverpair.ServerNotReady) as e:
            drv.fail(f"{name}: {e}")
        driving.log(f"{name}: {found['metrics'][0]['value']:.0f} instructions per {unit}")
        results.append({"benchmark": benchmark, "parameters": shown, **found})
    return results
