#!/usr/bin/env python3
"""Run-to-run variation of relay's instruction counts beside Criterion's wall clock.

    PATH=$PWD/.venv/bin:$PATH runners/relay/cv.py [--runs 10] [--out DIR] [--slowdown]

Runs the Gungraun benches (Callgrind, benches/instructions.rs) and, right after, Criterion's
quick profile on the same functions, `--runs` times; prints one row per function: mean and
coefficient of variation (stdev / mean over the runs) of Callgrind's instructions and
estimated cycles and of Criterion's mean time. With `--slowdown` it then rebuilds with the
cargo feature `inject-slowdown` (hexcodec::decode_into does ~10 % more work), runs the Gungraun
benches once more and prints each function's change against the runs' mean beside its CV.
Needs valgrind and gungraun-runner (`driver.py --profile instructions` installs it).
Everything it starts runs in the foreground and ends with it; raw output stays in DIR.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tomllib
from pathlib import Path

import relay_callgrind

from benchdash_runner.adapters import criterion as criterion_adapter
from benchdash_runner.adapters import gungraun as gungraun_adapter
from benchdash_runner.variation import cv

HERE = Path(__file__).resolve().parent
CRATE = HERE.parents[1] / "systems" / "relay"
CRITERION_TARGETS = ("crypto_bench", "serialization_bench")
Table = dict[str, dict[str, list[float]]]


def cargo(args: list[str], env: dict[str, str], log: Path) -> str:
    """Run `cargo bench --locked ARGS` in the crate; its output (also kept in `log`)."""
    cmd = ["nice", "cargo", "bench", "--locked", *args]
    done = subprocess.run(cmd, cwd=CRATE, env=env, capture_output=True, text=True, check=False)
    log.write_text(done.stdout + done.stderr)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed (exit {done.returncode}); see {log}")
    return done.stdout


def callgrind_run(
    env: dict[str, str], ids: list[str], log: Path, table: Table, extra: tuple[str, ...] = ()
) -> None:
    """One run of the Gungraun benches (cargo args `extra`): append each id's counts."""
    cargo([*extra, "--bench", relay_callgrind.BENCH_TARGET], env, log)
    for full_id, result in relay_callgrind.to_results(gungraun_adapter.parse([log]), ids).items():
        for m in result["metrics"]:
            table.setdefault(full_id, {}).setdefault(m["name"], []).append(m["value"])


def criterion_run(env: dict[str, str], ids: list[str], home: Path, log: Path, table: Table) -> None:
    """One quick Criterion run of the same ids: append each id's mean time (ns) to `table`."""
    pattern = "^(?:" + "|".join(re.escape(i) for i in ids) + ")$"
    for target in CRITERION_TARGETS:
        cargo(["--bench", target, "--", "--noplot", pattern], env, log)
    for result in criterion_adapter.parse([home]):
        params = result["parameters"]
        full_id = f"{result['benchmark']}/{params['input']}" if params else result["benchmark"]
        if full_id in ids:
            time = next(m for m in result["metrics"] if m["name"] == "time")
            table.setdefault(full_id, {}).setdefault("time", []).append(time["value"])


def print_table(ids: list[str], table: Table, runs: int) -> None:
    """Markdown table: per id, mean and CV of instructions, estimated cycles and time."""
    print(f"\n{runs} runs; CV = stdev / mean of the per-run figures\n")
    print("| benchmark | instructions | CV | est. cycles | CV | Criterion time (ns) | CV |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for i in ids:
        row = table.get(i, {})
        cells = [f"`{i}`"]
        for name, fmt in (
            ("instructions", "{:.0f}"),
            ("estimated_cycles", "{:.0f}"),
            ("time", "{:.1f}"),
        ):
            values = row.get(name, [])
            if values:
                cells += [fmt.format(statistics.mean(values)), f"{cv(values):.3f} %"]
            else:
                cells += ["—", "—"]
        print("| " + " | ".join(cells) + " |")


def print_slowdown(ids: list[str], base: Table, slow: Table) -> None:
    """Per id: the instruction count's change with `inject-slowdown` beside its run-to-run CV."""
    print("\nWith `--features inject-slowdown` (hexcodec::decode_into does extra work):\n")
    print("| benchmark | instructions (runs' mean) | with the patch | change | run-to-run CV |")
    print("|---|---:|---:|---:|---:|")
    for i in ids:
        before = base.get(i, {}).get("instructions")
        after = slow.get(i, {}).get("instructions")
        if not before or not after:
            continue
        mean = statistics.mean(before)
        change = 100 * (after[0] - mean) / mean
        print(f"| `{i}` | {mean:.0f} | {after[0]:.0f} | {change:+.2f} % | {cv(before):.3f} % |")


def main() -> int:
    """Build, run `--runs` times, print the tables."""
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--out", type=Path, default=Path("/tmp/relay-cv"))
    p.add_argument("--slowdown", action="store_true", help="then measure the injected slowdown")
    args = p.parse_args()
    manifest = tomllib.loads((HERE / "runner.toml").read_text())
    ids: list[str] = manifest["profiles"]["instructions"]["scenarios"]
    lock = (CRATE / "Cargo.lock").read_text()
    version = re.search(r'name = "gungraun"\nversion = "([^"]+)"', lock)
    assert version, "gungraun is not in Cargo.lock"
    runner = relay_callgrind.tools_root(version.group(1)) / "bin" / "gungraun-runner"
    if not runner.is_file():
        sys.exit(f"{runner} missing: run `runners/relay/driver.py --profile instructions` once")
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, GUNGRAUN_RUNNER=str(runner), CRITERION_HOME=str(out / "criterion"))
    env["RELAY_BENCH_PROFILE"] = "quick"
    targets = ["--bench", relay_callgrind.BENCH_TARGET]
    targets += [a for t in CRITERION_TARGETS for a in ("--bench", t)]
    cargo(["--no-run", *targets], env, out / "build.log")
    table: Table = {}
    for run in range(1, args.runs + 1):
        print(f"run {run}/{args.runs}", file=sys.stderr, flush=True)
        callgrind_run(env, ids, out / f"gungraun-{run}.txt", table)
        criterion_run(env, ids, out / "criterion", out / f"criterion-{run}.log", table)
    print_table(ids, table, args.runs)
    if args.slowdown:
        slow: Table = {}
        features = ("--features", "inject-slowdown")
        callgrind_run(env, ids, out / "gungraun-slowdown.txt", slow, features)
        print_slowdown(ids, table, slow)
    return 0


if __name__ == "__main__":
    sys.exit(main())
