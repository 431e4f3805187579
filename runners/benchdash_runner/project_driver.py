"""The generic driver: runs one profile of a project's benchdash.toml (runners/CONTRACT.md).

    python -m benchdash_runner.project_driver --manifest benchdash.toml --system SLUG
        --profile P --out DIR [--benchmarks a,b]

In the manifest's folder (the repository's root): the profile's `build` (exit 3 when it fails,
after its log), then `bench` once per repetition (`##benchdash progress i/n`), each time
reading the profile's `output` with its adapter (`auto`: told from the content). The
repetitions' samples are pooled per benchmark and metric, the manifest's metric directions
applied, and DIR/result.json written. The commands see the driver's environment (the agent's
allow-list) plus BENCHDASH_OUT, BENCHDASH_PROFILE, BENCHDASH_REPETITION and
BENCHDASH_BENCHMARKS (the `--benchmarks` asked for, comma-separated; the results are narrowed
to them either way).
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchdash_runner import adapters, document, driving, projectfile
from benchdash_runner.adapters import detect
from benchdash_runner.driving import Driver, log
from benchdash_runner.projectfile import Metric, ProjectManifestError


def pool(runs: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """One result per benchmark variant, each metric's samples (or values) of every run."""
    if len(runs) == 1:
        return runs[0]
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    samples: dict[tuple[str, str, str], list[float]] = {}
    for results in runs:
        for r in results:
            key = (r["benchmark"], json.dumps(r.get("parameters") or {}, sort_keys=True))
            entry = merged.setdefault(
                key, {"benchmark": r["benchmark"], "parameters": r.get("parameters") or {}}
            )
            kinds = entry.setdefault("kinds", {})
            for m in r["metrics"]:
                kind = (m["unit"], m["direction"])
                if kinds.setdefault(m["name"], kind) != kind:
                    raise SystemExit(f"error: {r['benchmark']}/{m['name']}: units differ by run")
                samples.setdefault((*key, m["name"]), []).extend(m.get("samples") or [m["value"]])
    out = []
    for key, entry in merged.items():
        kinds = entry.pop("kinds")
        entry["metrics"] = [
            document.metric(name, unit, direction, samples=samples[(*key, name)])
            for name, (unit, direction) in kinds.items()
        ]
        out.append(entry)
    return out


def declare(results: list[dict[str, Any]], metrics: Sequence[Metric]) -> list[dict[str, Any]]:
    """Apply the manifest's metric directions; a unit other than the declared one is an
    error. Returns the metric declarations of everything in `results`."""
    declared = {m.name: m for m in metrics}
    seen: dict[str, dict[str, Any]] = {}
    for r in results:
        for m in r["metrics"]:
            spec = declared.get(m["name"])
            if spec is not None:
                if spec.unit != m["unit"]:
                    raise SystemExit(
                        f"error: {r['benchmark']}/{m['name']}: the output's unit is "
                        f"{m['unit']!r}, benchdash.toml's metrics say {spec.unit!r}"
                    )
                m["direction"] = spec.direction
            seen[m["name"]] = {"name": m["name"], "unit": m["unit"], "direction": m["direction"]}
    return list(seen.values())


def narrow(results: list[dict[str, Any]], wanted: str | None) -> list[dict[str, Any]]:
    """The results of the benchmarks `--benchmarks` names (names or `group` prefixes)."""
    names = list(dict.fromkeys(r["benchmark"] for r in results))
    chosen = set(driving.select(names, wanted))
    return [r for r in results if r["benchmark"] in chosen]


def read_output(drv: Driver, path: Path, fmt: str) -> tuple[str, list[dict[str, Any]]]:
    """The bench command's output parsed with its adapter (exit 1 naming what is wrong)."""
    if not path.exists():
        drv.fail(f"the bench command wrote no {path} (the profile's output)")
    try:
        if fmt == "auto":
            fmt = detect.detect_all([path])
            log(f"{path.name}: format {fmt}")
        return fmt, adapters.parse(fmt, [path])
    except adapters.AdapterError as exc:
        drv.fail(f"cannot read the output as {fmt}: {exc}")


def main(argv: Sequence[str] | None = None) -> int:
    """Build, bench each repetition, write OUT/result.json."""
    p = argparse.ArgumentParser(prog="benchdash_runner.project_driver", description=__doc__)
    p.add_argument("--manifest", type=Path, default=Path(projectfile.FILENAME))
    p.add_argument("--system", required=True, help="the system's slug")
    p.add_argument("--profile", required=True)
    p.add_argument("--out", required=True, type=Path)
    p.add_argument("--benchmarks", help="comma-separated benchmark names or group prefixes")
    args = p.parse_args(argv)
    try:
        manifest = projectfile.load(args.manifest)
    except ProjectManifestError as exc:
        log(f"error: {exc}")
        return 1
    profile = manifest.profiles.get(args.profile)
    if profile is None or profile.bench is None or profile.output is None:
        known = ", ".join(n for n, pr in manifest.profiles.items() if pr.bench)
        log(f"error: {args.manifest} has no commands for profile {args.profile!r} (has: {known})")
        return 1
    root, out = args.manifest.resolve().parent, args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    raw = {"system": args.system, "source": ".", "profiles": {args.profile: {}}, "metrics": []}
    drv = Driver(manifest=raw, profile_name=args.profile, out=out, scenarios=[], root=root)
    atexit.register(drv.stop_all)

    def on_signal(signum: int, _frame: object) -> None:
        drv.stop_all()
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    env = {**os.environ, "BENCHDASH_OUT": str(out), "BENCHDASH_PROFILE": args.profile}
    env["BENCHDASH_BENCHMARKS"] = args.benchmarks or ""
    drv.phase("building")
    if profile.build is not None:
        drv.build(projectfile.argv(profile.build), cwd=root, env=env)
    drv.phase("running")
    output, runs, fmt = root / profile.output, [], profile.format
    for i in range(1, profile.repetitions + 1):
        drv.progress(f"repetition {i}", total=profile.repetitions)
        if output.is_file():  # a stale one would pass for this repetition's
            output.unlink()
        drv.check(
            projectfile.argv(profile.bench), cwd=root, env={**env, "BENCHDASH_REPETITION": str(i)}
        )
        fmt, results = read_output(drv, output, fmt)
        runs.append(results)
    results = narrow(pool(runs), args.benchmarks)
    raw["metrics"] = declare(results, manifest.metrics)
    bench = profile.bench if isinstance(profile.bench, str) else " ".join(profile.bench)
    config: dict[str, Any] = {"manifest": projectfile.FILENAME, "bench": bench, "format": fmt}
    config["repetitions"] = profile.repetitions
    drv.finish(results, configuration=config)
    return 0


if __name__ == "__main__":
    sys.exit(main())
