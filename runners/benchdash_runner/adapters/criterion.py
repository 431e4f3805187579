"""`criterion`: a `target/criterion` directory written by Criterion.rs (0.4/0.5).

For each `<id>/new/benchmark.json` we read `estimates.json` (mean point estimate, ns) and
`sample.json` (per-sample total time and iteration count). Each sample becomes one value
time/iters; a declared throughput adds `throughput_bytes` (bytes/s) or
`throughput_elements` (elements/s), named apart so one document never gives one metric
name two units.
The `base/` and `change/` folders (Criterion's own comparison) are ignored.
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
    scalar,
)
from benchdash_runner.document import metric

_THROUGHPUT_UNITS = {
    "Bytes": "bytes/s",
    "BytesDecimal": "bytes/s",
    "Elements": "elements/s",
}


def parse(paths: list[Path]) -> list[Result]:
    """Parse each given directory (or `benchmark.json` file) into results."""
    results: list[Result] = []
    for path in paths:
        if path.is_file() and path.name == "benchmark.json":
            found = [path]
        elif path.is_dir():
            found = sorted(p for p in path.rglob("benchmark.json") if p.parent.name == "new")
            if not found:
                raise AdapterError(path, "no */new/benchmark.json below this directory")
        else:
            raise AdapterError(path, "expected a target/criterion directory")
        results.extend(_one(p) for p in found)
    return results


def _one(bench_json: Path) -> Result:
    folder = bench_json.parent
    info = _object(bench_json)
    estimates = _object(folder / "estimates.json")
    sample = _object(folder / "sample.json")

    group = info.get("group_id")
    if not isinstance(group, str) or not group:
        raise AdapterError(bench_json, "group_id missing")
    function = info.get("function_id")
    name = f"{group}/{function}" if isinstance(function, str) and function else group
    parameters: dict[str, Any] = {}
    if isinstance(info.get("value_str"), str):
        parameters["input"] = scalar(info["value_str"])

    try:
        mean_ns = number(folder / "estimates.json", estimates["mean"]["point_estimate"], "mean")
    except (KeyError, TypeError):
        raise AdapterError(folder / "estimates.json", "mean.point_estimate missing") from None
    samples = _per_iteration(folder / "sample.json", sample)
    metrics = [metric("time", "ns", LOWER, value=mean_ns, samples=samples)]

    throughput = info.get("throughput")
    if isinstance(throughput, dict) and throughput:
        kind, amount = next(iter(throughput.items()))
        unit = _THROUGHPUT_UNITS.get(kind)
        if unit is None:
            raise AdapterError(bench_json, f"unknown throughput kind {kind!r}")
        amount = number(bench_json, amount, f"throughput.{kind}")
        if mean_ns <= 0 or min(samples) <= 0:
            raise AdapterError(folder / "sample.json", "zero time: cannot compute throughput")
        metrics.append(
            metric(
                f"throughput_{kind.lower().replace('bytesdecimal', 'bytes')}",
                unit,
                HIGHER,
                value=amount / (mean_ns * 1e-9),
                samples=[amount / (t * 1e-9) for t in samples],
            )
        )
    return {"benchmark": name, "parameters": parameters, "metrics": metrics}


def _per_iteration(path: Path, sample: dict[str, Any]) -> list[float]:
    iters, times = sample.get("iters"), sample.get("times")
    if not isinstance(iters, list) or not isinstance(times, list) or len(iters) != len(times):
        raise AdapterError(path, "iters and times must be lists of the same length")
    if not iters:
        raise AdapterError(path, "no samples")
    out = []
    for i, (n, t) in enumerate(zip(iters, times, strict=True)):
        n_f = number(path, n, f"iters[{i}]")
        if n_f <= 0:
            raise AdapterError(path, f"iters[{i}] must be positive")
        out.append(number(path, t, f"times[{i}]") / n_f)
    return out


def _object(path: Path) -> dict[str, Any]:
    data = load_json(path)
    if not isinstance(data, dict):
        raise AdapterError(path, "expected a JSON object")
    return data
