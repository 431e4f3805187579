#!/usr/bin/env python3
"""Bench driver of cachex: build the Go harness, run each scenario of a profile, emit benchdash/v1.

    runners/cachex/driver.py --profile quick|standard|full --out DIR [--benchmarks a,b]
                             [--cpu-profile]

The harness (`systems/cachex/cmd/cachex-bench`) runs every repetition of one scenario with its
two same-run references (no cache; naive cache) and writes the scenario's metrics, one sample
per repetition, as JSON under DIR/raw/; this driver turns them into the document.

When the manifest's profile says `cpu_profile = true` (or with --cpu-profile), each scenario
then runs once more, cachex alone (no references), one repetition, under Go's CPU profiler
(`-cpuprofile`); that profile becomes the scenario's `profile` (kind cpu, folded stacks).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from benchdash_runner import document, driving, pprof, toolinfo


def scenario_result(report: dict[str, Any], where: Path) -> dict[str, Any]:
    """The one scenario of a harness report as a benchdash result."""
    try:
        (scenario,) = report["scenarios"]
        metrics = [
            document.metric(m["name"], m["unit"], m["direction"], samples=m["samples"])
            for m in scenario["metrics"]
        ]
        return {
            "benchmark": scenario["benchmark"],
            "parameters": scenario["parameters"],
            "metrics": metrics,
        }
    except (KeyError, TypeError, ValueError) as exc:
        raise SystemExit(
            f"error: {where}: not a one-scenario cachex-bench report ({exc!r})"
        ) from None


def add_cpu_profile(parser: argparse.ArgumentParser) -> None:
    """The driver's own option: record CPU profiles whatever the manifest's profile says."""
    parser.add_argument(
        "--cpu-profile", action="store_true", help="also record each scenario's CPU profile"
    )


def main() -> int:
    """Build cachex-bench, run the selected scenarios, write DIR/result.json."""
    drv, args = driving.start(Path(__file__).with_name("runner.toml"), extra=add_cpu_profile)
    profiling = args.cpu_profile or bool(drv.profile.get("cpu_profile", False))
    binary, raw = drv.out / "cachex-bench", drv.out / "raw"
    raw.mkdir(exist_ok=True)
    drv.phase("building")
    drv.build(["go", "build", "-trimpath", "-o", str(binary), "./cmd/cachex-bench"])
    tool = pprof.build_tool(drv) if profiling else None
    drv.phase("running")
    results: list[dict[str, Any]] = []
    report: dict[str, Any] = {}
    steps = len(drv.scenarios) * (2 if profiling else 1)
    for name in drv.scenarios:
        drv.progress(name, total=steps)
        path = raw / f"{name}.json"
        drv.check(
            [str(binary), "-profile", drv.profile_name, "-scenarios", name, "-json", str(path)]
        )
        report = json.loads(path.read_text())
        results.append(scenario_result(report, path))
        if tool is not None:
            drv.progress(f"{name} (CPU profile)", total=steps)
            prof = raw / f"{name}.pprof"
            cmd = [str(binary), "-profile", drv.profile_name, "-scenarios", name]
            drv.check([*cmd, "-refs=false", "-reps", "1", "-cpuprofile", str(prof)])
            budget = pprof.byte_budget(len(drv.scenarios))
            field = pprof.go_cpu_profile(drv, tool, prof, metric="qps", max_bytes=budget)
            pprof.attach(results[-1:], field, benchmark=results[-1]["benchmark"])
    drv.finish(
        results,
        compiler="go",
        compiler_version=str(report.get("go_version", "")).removeprefix("go") or None,
        configuration={
            "module": "benchdash.dev/cachex",
            "dependencies": toolinfo.go_module_pins(go_mod=drv.system_dir / "go.mod"),
            "build_flags": "-trimpath",
            "backend": "ristretto",
            "load": "paced" if report.get("think_time_ms") else "closed-loop",
            "think_time_ms": report.get("think_time_ms", 0),
            "repetitions": report.get("repetitions"),
            "references": ["no-cache", "no-singleflight"] if report.get("references") else [],
            "reference_duration_s": report.get("reference_duration_s"),
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
