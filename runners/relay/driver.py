#!/usr/bin/env python3
"""Bench driver of relay: build, run Criterion (+ an OpenSSL reference), emit benchdash/v1.

    runners/relay/driver.py --profile quick|standard|full --out DIR [--benchmarks a,b,c]

`--benchmarks` takes Criterion ids (`encryption/10`), group names (`encryption`, all of its
ids) or `openssl_reference`. Benchmarks are named as the shared Criterion adapter names them:
`group[/function]` with the Criterion value as parameter `input` (`encryption/10` is benchmark
`encryption`, parameters {"input": 10}). Each repetition reruns Criterion; the repetitions of
one id are merged (value = mean of their means, samples pooled).

A profile with `harness = "gungraun"` (`instructions`) runs benches/instructions.rs under
Valgrind's Callgrind instead and reports `instructions` and `estimated_cycles` for the same
ids (relay_callgrind.py).
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import relay_callgrind

from benchdash_runner import document, driving
from benchdash_runner.adapters import criterion as criterion_adapter

OPENSSL_SCENARIO = "openssl_reference"
OPENSSL_SIZES = (10, 100, 1000, 10000)
# Criterion groups whose byte throughput is compared with OpenSSL: group -> openssl direction.
OPENSSL_PAIRS = {"encryption": "encrypt", "decryption_uncached": "decrypt"}
BENCH_TARGETS = ("crypto_bench", "serialization_bench")
BENCHMARKING = re.compile(r"^Benchmarking (\S+?)(?::.*)?$")
Speeds = dict[tuple[str, int], float]


def criterion_id(result: dict[str, Any]) -> str:
    """The Criterion id of an adapter result (`encryption` + {input: 10} → `encryption/10`)."""
    params = result["parameters"]
    return f"{result['benchmark']}/{params['input']}" if "input" in params else result["benchmark"]


def read_criterion_dir(root: Path) -> dict[str, dict[str, Any]]:
    """Every benchmark under `root` as a benchdash result, keyed by Criterion id."""
    return {criterion_id(r): r for r in criterion_adapter.parse([root])}


def criterion_result(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One result from the repetitions of one Criterion id: mean of means, pooled samples."""
    first = runs[0]
    metrics = []
    for i, metric in enumerate(first["metrics"]):
        same = [run["metrics"][i] for run in runs]
        metrics.append(
            {
                **metric,
                "value": sum(m["value"] for m in same) / len(same),
                "samples": [s for m in same for s in m["samples"]],
            }
        )
    return {**first, "metrics": metrics}


def openssl_results(runs: list[Speeds], results: list[dict[str, Any]]) -> None:
    """Add OpenSSL's throughput per size and direction, and `openssl_ratio` to our results."""
    by_id = {(r["benchmark"], r["parameters"].get("input")): r for r in results if r["parameters"]}
    for group, direction in OPENSSL_PAIRS.items():
        for size in OPENSSL_SIZES:
            ref = [r[(direction, size)] for r in runs if (direction, size) in r]
            if not ref:
                continue
            ref_mean = sum(ref) / len(ref)
            throughput = document.metric(
                "throughput_bytes", "bytes/s", "higher_is_better", value=ref_mean, samples=ref
            )
            results.append(
                {
                    "benchmark": "openssl_aes_256_cbc",
                    "parameters": {"input": size, "operation": direction},
                    "metrics": [throughput],
                }
            )
            ours = by_id.get((group, size))
            if ours:
                time_ns = next(m for m in ours["metrics"] if m["name"] == "time")
                ratios = [size / (s * 1e-9) / ref_mean for s in time_ns["samples"]]
                value = size / (time_ns["value"] * 1e-9) / ref_mean
                ours["metrics"].append(
                    document.metric(
                        "openssl_ratio", "ratio", "higher_is_better", value=value, samples=ratios
                    )
                )


def run_openssl(drv: driving.Driver, seconds: int) -> Speeds:
    """OpenSSL's AES-256-CBC bytes/s for each direction and size (wall clock); {} if it fails."""
    speeds: Speeds = {}
    for direction in ("encrypt", "decrypt"):
        for size in OPENSSL_SIZES:
            cmd = ["openssl", "speed", "-mr", "-elapsed", "-seconds", str(seconds)]
            cmd += ["-bytes", str(size), *(["-decrypt"] if direction == "decrypt" else [])]
            _, out = drv.run([*cmd, "-evp", "aes-256-cbc"], echo=False)
            # `+F:<n>:AES-256-CBC:<bytes/s>`; a "wrong final block length" note for sizes that
            # are not a multiple of 16 is expected and does not affect the figure.
            found = [line.rsplit(":", 1)[1] for line in out.splitlines() if line.startswith("+F:")]
            if not found:
                driving.log(f"openssl reference skipped: no +F line from {' '.join(cmd)}: {out}")
                return {}
            speeds[(direction, size)] = float(found[0])
            mib = speeds[(direction, size)] / 2**20
            driving.log(f"openssl aes-256-cbc {direction} {size} B: {mib:.1f} MiB/s")
    return speeds


def run_criterion(
    drv: driving.Driver, env: dict[str, str], ids: list[str], total: int, suffix: str
) -> None:
    """Run both bench targets on `ids`, announcing each id when Criterion starts it."""
    started: set[str] = set()

    def on_line(line: str) -> None:
        seen = BENCHMARKING.match(line)
        if seen and seen.group(1) in ids and seen.group(1) not in started:
            started.add(seen.group(1))
            drv.progress(seen.group(1) + suffix, total=total)

    pattern = "^(?:" + "|".join(ids) + ")$"
    for bench in BENCH_TARGETS:
        cmd = ["cargo", "bench", "--locked", "--bench", bench, "--", "--noplot", pattern]
        drv.check(cmd, env=env, on_line=on_line)


def locked_version(crate: Path, package: str) -> str | None:
    """Version of `package` in Cargo.lock."""
    lock = (crate / "Cargo.lock").read_text()
    found = re.search(rf'name = "{re.escape(package)}"\nversion = "([^"]+)"', lock)
    return found.group(1) if found else None


def rust_toolchain(drv: driving.Driver, crate: Path) -> dict[str, str | None]:
    """compiler, compiler_version and the crate's version for `finish`."""
    rustc = (drv.output(["rustc", "--version"]) or "").split()
    version = re.search(r'^version\s*=\s*"([^"]+)"', (crate / "Cargo.toml").read_text(), re.M)
    return {
        "compiler": "rustc",
        "compiler_version": rustc[1] if len(rustc) > 1 else None,
        "version": version.group(1) if version else None,
    }


def instrumented(drv: driving.Driver, crate: Path) -> int:
    """The `harness = "gungraun"` profile: Callgrind instruction counts, no Criterion."""
    gungraun = locked_version(crate, "gungraun")
    if gungraun is None:
        drv.fail("gungraun is not in systems/relay/Cargo.lock")
    results = relay_callgrind.run(drv, gungraun)
    drv.finish(
        results,
        **rust_toolchain(drv, crate),
        configuration={
            "cargo_profile": "bench",
            "opt_level": 3,
            "lto": True,
            "codegen_units": 1,
            "rustflags": os.environ.get("RUSTFLAGS", ""),
            "harness": "gungraun",
            "gungraun": gungraun,
            "valgrind": drv.output(["valgrind", "--version"]),
            "repetitions": drv.repetitions,
        },
    )
    return 0


def main() -> int:
    """Build, run the selected scenarios with their repetitions, write DIR/result.json."""
    drv, _ = driving.start(Path(__file__).with_name("runner.toml"))
    crate, reps = drv.system_dir, drv.repetitions
    if drv.profile.get("harness") == "gungraun":
        return instrumented(drv, crate)
    openssl_seconds = int(drv.profile.get("openssl_seconds", 1))
    criterion_ids = [s for s in drv.scenarios if s != OPENSSL_SCENARIO]
    target = Path(os.environ.get("CARGO_TARGET_DIR") or crate / "target")
    criterion_dir = Path(os.environ.get("CRITERION_HOME") or target / "criterion")
    env = dict(os.environ, RELAY_BENCH_PROFILE=drv.profile_name)

    drv.phase("building")
    targets = [arg for name in BENCH_TARGETS for arg in ("--bench", name)]
    drv.build(["cargo", "bench", "--locked", "--no-run", *targets], env=env)
    drv.phase("running")
    ours: dict[str, list[dict[str, Any]]] = {}
    reference: list[Speeds] = []
    for rep in range(1, reps + 1):
        suffix = f" (repetition {rep}/{reps})" if reps > 1 else ""
        if criterion_ids:
            shutil.rmtree(criterion_dir, ignore_errors=True)  # no stale ids from earlier runs
            run_criterion(drv, env, criterion_ids, len(drv.scenarios) * reps, suffix)
            for full_id, found in read_criterion_dir(criterion_dir).items():
                if full_id in criterion_ids:
                    ours.setdefault(full_id, []).append(found)
        if OPENSSL_SCENARIO in drv.scenarios:
            drv.progress(OPENSSL_SCENARIO + suffix, total=len(drv.scenarios) * reps)
            reference.append(run_openssl(drv, openssl_seconds))
    missing = [i for i in criterion_ids if i not in ours]
    if missing:
        drv.fail(f"no Criterion output for: {', '.join(missing)}")
    results = [criterion_result(ours[i]) for i in criterion_ids]
    openssl_results(reference, results)
    drv.finish(
        results,
        **rust_toolchain(drv, crate),
        configuration={
            "cargo_profile": "bench",
            "opt_level": 3,
            "lto": True,
            "codegen_units": 1,
            "rustflags": os.environ.get("RUSTFLAGS", ""),
            "criterion": locked_version(crate, "criterion"),
            "criterion_profile": drv.profile_name,
            "repetitions": reps,
            "openssl": drv.output(["openssl", "version"]),
            "openssl_command": "openssl speed -elapsed -evp aes-256-cbc -bytes N [-decrypt]",
            "openssl_seconds": openssl_seconds,
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
