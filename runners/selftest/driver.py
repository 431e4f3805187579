#!/usr/bin/env python3
"""Bench driver of selftest: times three small Python workloads (sort, hash, JSON) on this CPU.

    runners/selftest/driver.py --profile quick|standard|full --out DIR [--benchmarks a,b]

The integration tests drive the real agent with it. `BENCHDASH_SELFTEST_S` sets the seconds of
one repetition (default 0.3); `BENCHDASH_SELFTEST_FAIL_BUILD=1` makes the build step fail, so
the driver exits 3 after printing the build log, as a broken build would.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from benchdash_runner import document, driving

WORKLOADS: dict[str, Callable[[random.Random], object]] = {
    "sort": lambda rng: sorted(rng.random() for _ in range(2000)),
    "hash": lambda rng: hashlib.sha256(rng.randbytes(64 * 1024)).hexdigest(),
    "json": lambda rng: json.loads(json.dumps([{"i": i, "v": rng.random()} for i in range(300)])),
}
BUILD_CHECK = "import hashlib, json, random; print('selftest: the interpreter has what it needs')"
BROKEN_BUILD = (
    "raise SystemExit('error: selftest build failed on purpose (BENCHDASH_SELFTEST_FAIL_BUILD=1)')"
)


def measure(work: Callable[[random.Random], object], seconds: float, rng: random.Random) -> float:
    """Operations per second of one workload over `seconds`."""
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        work(rng)
        n += 1
    return n / (time.perf_counter() - t0)


def main() -> int:
    """Check the interpreter, time each selected workload, write DIR/result.json."""
    drv, _ = driving.start(Path(__file__).with_name("runner.toml"))
    seconds = float(os.environ.get("BENCHDASH_SELFTEST_S", "0.3"))
    unknown = [name for name in drv.scenarios if name not in WORKLOADS]
    if unknown:
        drv.fail(f"runner.toml names workloads this driver lacks: {', '.join(unknown)}")
    drv.phase("building")
    broken = os.environ.get("BENCHDASH_SELFTEST_FAIL_BUILD") == "1"
    drv.build([sys.executable, "-c", BROKEN_BUILD if broken else BUILD_CHECK])
    drv.phase("running")
    rng = random.Random(1)
    results = []
    for name in drv.scenarios:
        drv.progress(name)
        samples = []
        for rep in range(drv.repetitions):
            samples.append(measure(WORKLOADS[name], seconds, rng))
            driving.log(f"{name} repetition {rep + 1}: {samples[-1]:.1f} ops/s")
        ops = document.metric("ops_per_s", "ops/s", "higher_is_better", samples=samples)
        results.append({"benchmark": name, "parameters": {"seconds": seconds}, "metrics": [ops]})
    drv.finish(
        results,
        compiler="cpython",
        compiler_version=platform.python_version(),
        configuration={"seconds_per_repetition": seconds, "repetitions": drv.repetitions},
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
