#!/usr/bin/env python3
"""Bench driver of `pointsub`: build the Go harness, run one profile, write OUT/result.json.

    runners/pointsub/driver.py --profile quick|standard|full --out DIR [--benchmarks a,b]
                               [--mode saturate|paced] [--cpu-profile]

`--benchmarks` takes scenario names (`throughput/1kb`) or groups (`network`). Each scenario runs
in its own harness process (so its memory figure is its own), in every mode the profile lists
(`modes` in runner.toml) unless `--mode` picks one. Needs Python with `benchdash_runner`.

When the manifest's profile says `cpu_profile = true` (or with --cpu-profile), each scenario
then runs once more in that mode, libp2p only (no TCP reference), one repetition, under Go's
CPU profiler (`-cpuprofile`); that profile becomes the scenario's `profile` (kind cpu).
"""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path
from typing import Any

from benchdash_runner import driving, pprof, toolinfo

MODES = ("saturate", "paced")


def add_options(parser: argparse.ArgumentParser) -> None:
    """The driver's own options: one send mode instead of the profile's list; CPU profiles
    whatever the manifest's profile says."""
    parser.add_argument("--mode", choices=MODES, help="send mode (default: the profile's modes)")
    parser.add_argument(
        "--cpu-profile", action="store_true", help="also record each scenario's CPU profile"
    )


def go_version(cwd: Path) -> str:
    """Version of the Go toolchain, without the 'go' prefix."""
    out = subprocess.run(["go", "env", "GOVERSION"], capture_output=True, text=True, cwd=cwd)
    return out.stdout.strip().removeprefix("go") or "unknown"


def run_scenario(
    drv: driving.Driver, binary: Path, name: str, mode: str, raw: Path
) -> list[dict[str, Any]]:
    """Run one scenario in one mode; return its results (and its TCP reference's)."""
    reps = int(drv.profile["repetitions"])
    cmd = [str(binary), "-profile", drv.profile_name, "-scenarios", name, "-mode", mode]
    cmd += ["-reps", str(reps), "-json", str(raw)]
    code, _ = drv.run(cmd)
    if code != 0:
        drv.fail(f"pointsub-bench failed on {name} ({mode}), exit {code}")
    report = json.loads(raw.read_text())
    results: list[dict[str, Any]] = report["results"]
    return results


def profile_scenario(
    drv: driving.Driver, binary: Path, tool: Path, name: str, mode: str, raw: Path, count: int
) -> dict[str, Any]:
    """One more libp2p-only run of the scenario under the CPU profiler: its `profile` field."""
    prof = raw.with_suffix(".pprof")
    cmd = [str(binary), "-profile", drv.profile_name, "-scenarios", name, "-mode", mode]
    drv.check([*cmd, "-reps", "1", "-reference=false", "-cpuprofile", str(prof)])
    budget = pprof.byte_budget(count)
    return pprof.go_cpu_profile(drv, tool, prof, metric="throughput", max_bytes=budget)


def main() -> int:
    """Build, run the profile's scenarios in its modes, write the document."""
    drv, args = driving.start(Path(__file__).with_name("runner.toml"), extra=add_options)
    profiling = args.cpu_profile or bool(drv.profile.get("cpu_profile", False))
    modes = [args.mode] if args.mode else list(drv.profile.get("modes", ["saturate"]))
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        drv.fail(f"runner.toml lists unknown modes {unknown}")
    drv.phase("building")
    binary = drv.out / "pointsub-bench"
    drv.build(
        ["go", "build", "-trimpath", "-buildvcs=false", "-o", str(binary), "./cmd/pointsub-bench"]
    )
    tool = pprof.build_tool(drv) if profiling else None
    drv.phase("running")
    raw_dir = drv.out / "raw"
    raw_dir.mkdir(exist_ok=True)
    runs = len(drv.scenarios) * len(modes)
    total = runs * (2 if profiling else 1)
    results: list[dict[str, Any]] = []
    for mode in modes:
        for name in drv.scenarios:
            drv.progress(f"{name} ({mode})", total=total)
            raw = raw_dir / f"{name.replace('/', '_')}-{mode}.json"
            results += run_scenario(drv, binary, name, mode, raw)
            if tool is not None:
                drv.progress(f"{name} ({mode}, CPU profile)", total=total)
                field = profile_scenario(drv, binary, tool, name, mode, raw, runs)
                pprof.attach(results, field, benchmark=name, parameters={"mode": mode})
    drv.finish(
        results,
        compiler="go",
        compiler_version=go_version(drv.system_dir),
        configuration={
            "module": "benchdash.dev/pointsub",
            "dependencies": toolinfo.go_module_pins(go_mod=drv.system_dir / "go.mod"),
            "build_flags": "-trimpath",
            "libp2p_stack": "tcp + noise + yamux, loopback",
            "reference": "loopback TCP, same framing and acknowledgements (saturate mode)",
            "latency": "round trip: first send to acknowledgement",
            "modes": modes,
            "repetitions": int(drv.profile["repetitions"]),
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
