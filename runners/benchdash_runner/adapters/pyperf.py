"""`pyperf`: the JSON that pyperf writes with `-o FILE` (a `Runner` script or `pyperf timeit`).

Each benchmark's name is its `metadata.name` (or the file's common metadata for a single
`timeit`). Every value of every worker run is a sample; warmups and calibration runs (runs
without `values`) are left out. The unit comes from the metadata: `second` -> `time` in ns
(lower is better), `byte` -> `memory` in bytes (`--track-memory`, lower), `integer` -> `value`.
A gzip-compressed file (`-o x.json.gz`) is read as well.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from benchdash_runner.adapters._base import (
    LOWER,
    AdapterError,
    Result,
    load_json,
    number,
)
from benchdash_runner.document import metric

_UNITS = {"second": ("time", "ns", 1e9), "byte": ("memory", "bytes", 1.0)}


def parse(paths: list[Path]) -> list[Result]:
    """One result per benchmark of each file."""
    results: list[Result] = []
    for path in paths:
        data = _load(path)
        if not sniff(data):
            raise AdapterError(
                path, "expected pyperf JSON: an object with 'benchmarks' and 'version'"
            )
        common = data.get("metadata") or {}
        for i, bench in enumerate(data["benchmarks"]):
            results.append(_one(path, i, bench, common))
    return results


def sniff(data: Any) -> bool:
    """pyperf's top level: `benchmarks` whose entries hold `runs`, and a `version`."""
    return (
        isinstance(data, dict)
        and "version" in data
        and isinstance(data.get("benchmarks"), list)
        and all(isinstance(b, dict) and "runs" in b for b in data["benchmarks"])
    )


def _load(path: Path) -> Any:
    if path.suffix == ".gz":
        try:
            return json.loads(gzip.decompress(path.read_bytes()))
        except (OSError, ValueError, EOFError) as e:
            raise AdapterError(path, f"not gzip-compressed JSON: {e}") from None
    return load_json(path)


def _one(path: Path, i: int, bench: Any, common: dict[str, Any]) -> Result:
    if not isinstance(bench, dict) or not isinstance(bench.get("runs"), list):
        raise AdapterError(path, f"benchmarks[{i}] has no runs")
    meta = {**common, **(bench.get("metadata") or {})}
    name = meta.get("name")
    if not isinstance(name, str) or not name:
        raise AdapterError(path, f"benchmarks[{i}] has no name in its metadata")
    unit = meta.get("unit", "second")
    metric_name, shown, scale = _UNITS.get(unit, ("value", str(unit), 1.0))
    samples = []
    for r, run in enumerate(bench["runs"]):
        values = run.get("values") if isinstance(run, dict) else None
        for k, v in enumerate(values or []):
            samples.append(number(path, v, f"{name}: runs[{r}].values[{k}]") * scale)
    if not samples:
        raise AdapterError(path, f"{name}: no values in any run (only warmups?)")
    return {
        "benchmark": name,
        "parameters": {},
        "metrics": [metric(metric_name, shown, LOWER, samples=samples)],
    }
