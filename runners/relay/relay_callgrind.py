"""relay's instrumented profile: Gungraun benches under Valgrind's Callgrind → instruction counts.

The `instructions` bench target (systems/relay/benches/instructions.rs) runs each hot function
once under Callgrind. Its text output is read by the shared `gungraun` adapter and renamed to
the Criterion ids of the same functions (`encryption` + id `input_10` → `encryption/10`), so
the dashboard lists `instructions` and `estimated_cycles` beside `time` for one benchmark.

When the manifest profile sets `attach_profiles = true`, each result also carries its bench's
Callgrind profile (`profile`, folded stacks of Ir from the bench function down; runners/
CONTRACT.md "Producing profiles"), read from the callgrind.*.out file Gungraun leaves under
target/gungraun/relay/instructions/<group>/<function>.<id>/.

gungraun-runner must be the version of the `gungraun` crate in Cargo.lock (the crate refuses
any other): it is installed with `cargo install --locked` into a cache folder of its own the
first time (a few minutes), and found there afterwards.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchdash_runner import callgrind, document, driving, profiles
from benchdash_runner.adapters import gungraun as gungraun_adapter

BENCH_TARGET = "instructions"
RUNNER_CRATE = "gungraun-runner"
HEADER = re.compile(r"^\S+::(?P<function>\w+)(?: (?P<id>[^\s:]+):.*)?$")
# adapter metric name -> the unit the manifest declares (Callgrind's Ir and its cycle estimate)
KEPT = {"instructions": "instructions", "estimated_cycles": "cycles"}
OUT_FILE = re.compile(r"^callgrind\..+\.out(\.t?\d+)*$")  # not .log, not .old (Gungraun's last)
DOCUMENT_PROFILES = 4 << 20  # all profiles of one document (the server takes 5 MiB in all)
WRAPPER = "::__gungraun_wrapper_mod::"  # the bench function Gungraun wraps: the stacks' root


def tools_root(version: str) -> Path:
    """Where the pinned gungraun-runner lives: one folder per version, outside any checkout."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "benchdash" / "tools" / f"{RUNNER_CRATE}-{version}"


def ensure_runner(drv: driving.Driver, version: str) -> Path:
    """The gungraun-runner binary of `version`, installed from crates.io when missing."""
    root = tools_root(version)
    binary = root / "bin" / RUNNER_CRATE
    if binary.is_file() and drv.output([str(binary), "--version"]) == f"{RUNNER_CRATE} {version}":
        driving.log(f"{RUNNER_CRATE} {version}: {binary}")
        return binary
    cmd = ["cargo", "install", "--locked", RUNNER_CRATE, "--version", version]
    drv.build([*cmd, "--root", str(root)])
    found = drv.output([str(binary), "--version"])
    if found != f"{RUNNER_CRATE} {version}":
        drv.fail(f"{binary} says {found!r} after cargo install, expected {version}")
    return binary


def criterion_id(function: str, bench_id: str | None, known: set[str]) -> tuple[str, Any] | None:
    """(Criterion id, its `input` or None) of a Gungraun bench, when the profile knows it."""
    if bench_id:
        value = bench_id.removeprefix("input_")
        if f"{function}/{value}" in known:
            return f"{function}/{value}", int(value) if value.isdigit() else value
    return (function, None) if function in known else None


def to_results(raw: list[dict[str, Any]], wanted: list[str]) -> dict[str, dict[str, Any]]:
    """The adapter's results as relay's benchmarks, keyed by Criterion id (`wanted` only)."""
    known, out = set(wanted), {}
    for result in raw:
        bench_id = result["parameters"].get("id")
        named = criterion_id(result["benchmark"].rsplit("::", 1)[-1], bench_id, known)
        if named is None:
            continue
        full_id, value = named
        group = full_id.rsplit("/", 1)[0] if value is not None else full_id
        metrics = []
        for m in result["metrics"]:
            if m["name"] in KEPT:
                metrics.append({**m, "unit": KEPT[m["name"]]})
        out[full_id] = {
            "benchmark": group,
            "parameters": {"input": value} if value is not None else {},
            "metrics": metrics,
        }
    return out


def gungraun_home(crate: Path) -> Path:
    """Where Gungraun writes this crate's bench outputs."""
    target = Path(os.environ.get("CARGO_TARGET_DIR") or crate / "target")
    home = Path(os.environ.get("GUNGRAUN_HOME") or target / "gungraun")
    return home / "relay" / BENCH_TARGET


def profiles_of(home: Path, wanted: list[str]) -> dict[str, dict[str, Any]]:
    """Each wanted bench's `profile` (folded Ir stacks from the bench function), by Criterion id."""
    known, found = set(wanted), {}
    budget = min(profiles.MAX_BYTES, DOCUMENT_PROFILES // max(1, len(wanted)))
    for folder in sorted(p for p in home.glob("*/*") if p.is_dir()):
        function, _, bench_id = folder.name.partition(".")
        named = criterion_id(function, bench_id or None, known)
        files = sorted(f for f in folder.iterdir() if OUT_FILE.match(f.name))
        if named is None or not files:
            continue
        graph = callgrind.read(files)
        roots = sorted(f for f in profiles.functions(graph) if WRAPPER in f)
        stacks = profiles.folded(graph, roots=roots, max_bytes=budget)
        found[named[0]] = profiles.field(stacks, metric="instructions")
    return found


def merge(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One result from repeated runs of one bench: value = the median count, runs as samples."""
    metrics = []
    for i, first in enumerate(runs[0]["metrics"]):
        counts = [v for run in runs for v in run["metrics"][i].get("samples") or []]
        counts += [run["metrics"][i]["value"] for run in runs if "samples" not in run["metrics"][i]]
        median = sorted(counts)[len(counts) // 2]
        samples = counts if len(counts) > 1 else None
        metrics.append(
            document.metric(
                first["name"], first["unit"], first["direction"], value=median, samples=samples
            )
        )
    return {**runs[0], "metrics": metrics}


def announcer(
    drv: driving.Driver, known: set[str], suffix: str, total: int
) -> Callable[[str], None]:
    """A line handler announcing each bench of the profile as Gungraun starts it."""

    def on_line(line: str) -> None:
        head = HEADER.match(line)
        named = head and criterion_id(head["function"], head["id"], known)
        if named:
            drv.progress(named[0] + suffix, total=total)

    return on_line


def run(drv: driving.Driver, runner_version: str) -> list[dict[str, Any]]:
    """Build and run the Callgrind benches `repetitions` times; results in scenario order."""
    if shutil.which("valgrind") is None:
        drv.fail("valgrind is not installed (see systems/relay/apt-packages.txt)")
    drv.phase("building")
    binary = ensure_runner(drv, runner_version)
    # gungraun reads GUNGRAUN_RUNNER when the bench compiles (option_env!) and cargo rebuilds
    # the bench when it changes.
    env = dict(os.environ, GUNGRAUN_RUNNER=str(binary))
    drv.build(["cargo", "bench", "--locked", "--no-run", "--bench", BENCH_TARGET], env=env)
    drv.phase("running")
    reps, known = drv.repetitions, set(drv.scenarios)
    runs: dict[str, list[dict[str, Any]]] = {}
    stacks: dict[str, dict[str, Any]] = {}
    for rep in range(1, reps + 1):
        suffix = f" (repetition {rep}/{reps})" if reps > 1 else ""
        output = drv.check(
            ["cargo", "bench", "--locked", "--bench", BENCH_TARGET],
            env=env,
            on_line=announcer(drv, known, suffix, len(drv.scenarios) * reps),
        )
        text = drv.out / f"gungraun-{rep}.txt"
        text.write_text(output + "\n")
        for full_id, result in to_results(gungraun_adapter.parse([text]), drv.scenarios).items():
            runs.setdefault(full_id, []).append(result)
        if drv.profile.get("attach_profiles"):  # the last repetition's (they are the same)
            stacks = profiles_of(gungraun_home(drv.system_dir), drv.scenarios)
    missing = [s for s in drv.scenarios if s not in runs]
    if missing:
        drv.fail(f"no Gungraun output for: {', '.join(missing)}")
    unprofiled = [
        s for s in drv.scenarios if drv.profile.get("attach_profiles") and s not in stacks
    ]
    if unprofiled:
        drv.fail(f"no Callgrind file under {gungraun_home(drv.system_dir)} for: {unprofiled}")
    results = [merge(runs[s]) for s in drv.scenarios]
    return [
        {**r, "profile": stacks[s]} if s in stacks else r
        for s, r in zip(drv.scenarios, results, strict=True)
    ]
