"""`vitest`: the file `vitest bench --outputJson FILE` writes (tinybench results by file and group).

A benchmark is named by its group's full name and its own (`small.bench.js > sort > toSorted
1000`, vitest's own way of joining them). tinybench measures in ms: `time` in ms (lower is
better) and `throughput` in ops/s (tinybench's `hz`, higher is better). vitest 4 always empties
`samples` in this file (it keeps only `sampleCount`), so `time`'s value is tinybench's median
of all its samples (the mean when there is no median); where a file does carry samples, they
are kept and the value is left to the server. `p99` becomes `time_p99` (value only).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchdash_runner.adapters._base import (
    HIGHER,
    LOWER,
    AdapterError,
    Result,
    load_json,
    number,
)
from benchdash_runner.document import metric


def parse(paths: list[Path]) -> list[Result]:
    """One result per benchmark of every group of every test file."""
    results: list[Result] = []
    for path in paths:
        data = load_json(path)
        if not sniff(data):
            raise AdapterError(path, "expected vitest bench JSON: an object with a 'files' list")
        for f, file in enumerate(data["files"]):
            for g, group in enumerate(file.get("groups") or []):
                if not isinstance(group, dict) or not isinstance(group.get("benchmarks"), list):
                    raise AdapterError(path, f"files[{f}].groups[{g}] has no benchmarks list")
                prefix = str(group.get("fullName") or "")
                for b, bench in enumerate(group["benchmarks"]):
                    where = f"files[{f}].groups[{g}].benchmarks[{b}]"
                    results.append(_one(path, where, prefix, bench))
    return results


def sniff(data: Any) -> bool:
    """`files`, each with `filepath` and `groups` (of `benchmarks`)."""
    files = data.get("files") if isinstance(data, dict) else None
    return (
        isinstance(files, list)
        and bool(files)
        and all(isinstance(f, dict) and "groups" in f and "filepath" in f for f in files)
    )


def _one(path: Path, where: str, prefix: str, bench: Any) -> Result:
    if not isinstance(bench, dict) or not isinstance(bench.get("name"), str):
        raise AdapterError(path, f"{where} has no name")
    name = f"{prefix} > {bench['name']}" if prefix else bench["name"]
    where = f"{where} ({bench['name']})"
    samples = bench.get("samples")
    if isinstance(samples, list) and samples:
        got = [number(path, s, f"{where}.samples[{k}]") for k, s in enumerate(samples)]
        time = metric("time", "ms", LOWER, samples=got)
    else:
        key = "median" if "median" in bench else "mean"
        time = metric("time", "ms", LOWER, value=number(path, bench.get(key), f"{where}.{key}"))
    metrics = [time]
    if "hz" in bench:
        hz = number(path, bench["hz"], f"{where}.hz")
        metrics.append(metric("throughput", "ops/s", HIGHER, value=hz))
    if "p99" in bench:
        p99 = number(path, bench["p99"], f"{where}.p99")
        metrics.append(metric("time_p99", "ms", LOWER, value=p99))
    return {"benchmark": name, "parameters": {}, "metrics": metrics}
