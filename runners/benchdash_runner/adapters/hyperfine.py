"""`hyperfine`: the file written by `hyperfine --export-json FILE`.

Each result's `times` (seconds) become samples of `time` in ms (without `times`, the median
is the value; past KEPT_SAMPLES runs, the samples are spread by rank and hyperfine's median
of all runs is the value); mean user and system CPU time are added as value-only metrics. With
`--parameter-scan`/`-L`, the parameters are kept.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchdash_runner.adapters._base import LOWER, AdapterError, Result, load_json, number, scalar
from benchdash_runner.document import metric
from benchdash_runner.sampling import KEPT_SAMPLES

_MS = 1e3


def parse(paths: list[Path]) -> list[Result]:
    """Parse each JSON file into one result per command."""
    results: list[Result] = []
    for path in paths:
        data = load_json(path)
        if not isinstance(data, dict) or not isinstance(data.get("results"), list):
            raise AdapterError(path, "expected an object with a 'results' list (--export-json)")
        for i, entry in enumerate(data["results"]):
            results.append(_one(path, i, entry))
    return results


def _one(path: Path, i: int, entry: Any) -> Result:
    if not isinstance(entry, dict) or not isinstance(entry.get("command"), str):
        raise AdapterError(path, f"results[{i}] has no command")
    where = f"results[{i}] ({entry['command']})"
    times = entry.get("times")
    if isinstance(times, list) and times:
        samples = [number(path, t, f"{where}.times[{k}]") * _MS for k, t in enumerate(times)]
        value = None
        if len(samples) > KEPT_SAMPLES and "median" in entry:
            value = number(path, entry["median"], f"{where}.median") * _MS
        time_metric = metric("time", "ms", LOWER, value=value, samples=samples)
    else:
        key = "median" if "median" in entry else "mean"
        value = number(path, entry.get(key), f"{where}.{key}") * _MS
        time_metric = metric("time", "ms", LOWER, value=value)
    metrics = [time_metric]
    for key in ("user", "system"):
        if key in entry:
            metrics.append(
                metric(
                    f"{key}_time",
                    "ms",
                    LOWER,
                    value=number(path, entry[key], f"{where}.{key}") * _MS,
                )
            )
    params = {str(k): scalar(str(v)) for k, v in (entry.get("parameters") or {}).items()}
    return {"benchmark": entry["command"], "parameters": params, "metrics": metrics}
