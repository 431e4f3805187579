#!/usr/bin/env python3
"""Run-to-run variation of uvhttp's instruction counts beside the wall clock.

    PATH=$PWD/.venv/bin:$PATH runners/uvhttp/cv.py [--runs 10] [--out DIR] [--seconds 2]

Builds performance_test as the driver does (into DIR/build), then for each scenario of the
`instructions` profile, `--runs` times: the Callgrind measurement the profile makes
(instructions and estimated cycles per request, uvhttp_instructions.counted) and, right after,
the scenario's wall-clock benchmark of the quick profile (wrk, its threads and connections,
`--seconds` long, pinned as the driver pins) against performance_test without Valgrind.
Prints per scenario the mean and coefficient of variation (stdev / mean over the runs) of
each. Needs cmake, valgrind and wrk; everything it starts ends with it.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import driver
import uvhttp_bench as bench
import uvhttp_instructions as ui

from benchdash_runner import serverpair, variation
from benchdash_runner.processes import Processes

HERE = Path(__file__).resolve().parent
SYSTEM = HERE.parents[1] / "systems" / "uvhttp"
COLUMNS = (
    ("instructions_per_request", "instructions / request", "{:.1f}"),
    ("estimated_cycles_per_request", "est. cycles / request", "{:.1f}"),
    ("requests_per_second", "wall clock: wrk req/s", "{:.0f}"),
)


def wrk_rps(procs: Processes, binary: Path, out: Path, name: str, seconds: float) -> float:
    """The quick profile's wrk run of scenario `name` against performance_test: req/s."""
    scenario, cpus = bench.SCENARIOS[name], serverpair.cpu_split(server_cpus=1)
    script = out / "wrk.lua"
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(bench.lua_script(scenario, (SYSTEM / "bench" / "report.lua").read_text()))
    spec = ui.server_spec(binary, out, "uvhttp-native", under=[])
    spec = dataclasses.replace(spec, cmd=cpus.server(spec.cmd))
    with serverpair.serve(procs, specs=[spec]) as up:
        url = up[spec.name].url + scenario.path
        procs.run(cpus.client(bench.wrk_command(scenario, 0.5, script, url)), echo=False)
        code, output = procs.run(
            cpus.client(bench.wrk_command(scenario, seconds, script, url)), echo=False
        )
    return bench.check_run(scenario, code, output)["requests_per_second"]


def main() -> int:
    """Build, measure `--runs` times, print the table."""
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--out", type=Path, default=Path("/tmp/uvhttp-cv"))
    p.add_argument("--seconds", type=float, default=2.0)
    args = p.parse_args()
    out, jobs = args.out.resolve(), str(os.cpu_count() or 1)
    build = ["cmake", "-S", str(SYSTEM), "-B", str(out / "build"), *driver.CMAKE_OPTIONS]
    subprocess.run([*build, "-DUVHTTP_BUILD_TESTS=OFF"], check=True, capture_output=True)
    subprocess.run(
        ["cmake", "--build", str(out / "build"), "-j", jobs, "--target", "performance_test"],
        check=True,
        capture_output=True,
    )
    binary = out / "build" / "performance_test"
    profile = tomllib.loads((HERE / "runner.toml").read_text())["profiles"]["instructions"]
    procs = Processes()
    table: dict[str, dict[str, list[float]]] = {}
    try:
        for run in range(1, args.runs + 1):
            print(f"run {run}/{args.runs}", file=sys.stderr, flush=True)
            for name in profile["scenarios"]:
                params = dict(profile["parameters"][name])
                where = out / f"{run}" / name.replace("/", "_")
                row = table.setdefault(name, {})
                for m in ui.counted(procs, binary, where, name, params, profile=False)["metrics"]:
                    row.setdefault(m["name"], []).append(m["value"])
                rps = wrk_rps(procs, binary, where, name, args.seconds)
                row.setdefault("requests_per_second", []).append(rps)
    finally:
        procs.stop_all()
    variation.print_table(table, COLUMNS, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
