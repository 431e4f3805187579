"""`pytest-benchmark`: the file written by `pytest --benchmark-json=FILE`.

The benchmark is the test's node id without its `[param]` suffix; the test's `params`
become parameters. Times are seconds in the file and ns here; `stats.data` (one value per
round, already divided by the iterations) become samples when present; without them the
median is the value. Past KEPT_SAMPLES rounds (a cheap function timed 200,000 times), the
samples are that many rounds spread by rank (`sampling.spread`: minimum, maximum and
quantiles kept) and the value is the tool's own median of all rounds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchdash_runner.adapters._base import LOWER, AdapterError, Result, load_json, number
from benchdash_runner.document import metric
from benchdash_runner.sampling import KEPT_SAMPLES

_NS = 1e9


def parse(paths: list[Path]) -> list[Result]:
    """Parse each JSON file into one result per benchmarked test."""
    results: list[Result] = []
    for path in paths:
        data = load_json(path)
        if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
            raise AdapterError(
                path, "expected an object with a 'benchmarks' list (--benchmark-json)"
            )
        for i, bench in enumerate(data["benchmarks"]):
            results.append(_one(path, i, bench))
    return results


def _one(path: Path, i: int, bench: Any) -> Result:
    if not isinstance(bench, dict) or not isinstance(bench.get("stats"), dict):
        raise AdapterError(path, f"benchmarks[{i}] has no stats")
    fullname = bench.get("fullname") or bench.get("name")
    if not isinstance(fullname, str) or not fullname:
        raise AdapterError(path, f"benchmarks[{i}] has no name")
    name = fullname.split("[", 1)[0] if bench.get("params") else fullname
    params: dict[str, Any] = {}
    for key, value in (bench.get("params") or {}).items():
        ok = value is None or isinstance(value, (str, int, float, bool))
        params[str(key)] = value if ok else str(value)
    stats = bench["stats"]
    where = f"benchmarks[{i}] ({fullname}).stats"
    data = stats.get("data")
    if isinstance(data, list) and data:
        samples = [number(path, x, f"{where}.data[{k}]") * _NS for k, x in enumerate(data)]
        value = None
        if len(samples) > KEPT_SAMPLES and "median" in stats:
            value = number(path, stats["median"], f"{where}.median") * _NS
        time = metric("time", "ns", LOWER, value=value, samples=samples)
    else:
        key = "median" if "median" in stats else "mean"
        time = metric(
            "time", "ns", LOWER, value=number(path, stats.get(key), f"{where}.{key}") * _NS
        )
    return {"benchmark": name, "parameters": params, "metrics": [time]}
