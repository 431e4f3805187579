#!/usr/bin/env python3
"""Run-to-run variation of galay-ssl's instruction counts beside the wall clock.

    PATH=$PWD/.venv/bin:$PATH runners/galay-ssl/cv.py [--runs 10] [--out DIR]

For each scenario of the `instructions` profile, `--runs` times: the Callgrind measurement the
profile makes (instructions and estimated cycles per round trip, galay_instructions.counted)
and, right after, the same client workload against the server without Valgrind (its
Requests/sec). Prints per scenario the mean and coefficient of variation (stdev / mean over
the runs) of each. Needs the build of `driver.py` (systems/galay-ssl/build/bench) and valgrind.
Everything it starts ends with it; the Callgrind files stay in DIR.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

import galay_instructions as gi

from benchdash_runner import variation
from benchdash_runner.processes import Processes

HERE = Path(__file__).resolve().parent
BUILD = HERE.parents[1] / "systems" / "galay-ssl" / "build" / "bench"
COLUMNS = (
    ("instructions_per_request", "instructions / round trip", "{:.1f}"),
    ("estimated_cycles_per_request", "est. cycles / round trip", "{:.1f}"),
    ("qps", "wall clock: round trips/s", "{:.0f}"),
)


def main() -> int:
    """Measure `--runs` times, print the table."""
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--out", type=Path, default=Path("/tmp/galay-ssl-cv"))
    args = p.parse_args()
    if not (BUILD / "bin" / gi.SERVER).is_file():
        sys.exit(f"{BUILD} has no build: run `runners/galay-ssl/driver.py --profile quick` once")
    profile = tomllib.loads((HERE / "runner.toml").read_text())["profiles"]["instructions"]
    procs = Processes()
    table: dict[str, dict[str, list[float]]] = {}
    try:
        for run in range(1, args.runs + 1):
            print(f"run {run}/{args.runs}", file=sys.stderr, flush=True)
            for name in profile["scenarios"]:
                params = dict(profile["parameters"][name])
                out = args.out.resolve() / f"{run}" / name
                row = table.setdefault(name, {})
                for m in gi.counted(procs, BUILD, out, params, profile=False)["metrics"]:
                    row.setdefault(m["name"], []).append(m["value"])
                row.setdefault("qps", []).append(gi.native(procs, BUILD, out, params)["qps"])
    finally:
        procs.stop_all()
    variation.print_table(table, COLUMNS, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
