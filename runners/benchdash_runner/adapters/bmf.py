"""`bmf`: Bencher Metric Format JSON, `{benchmark: {measure: {value, lower_value?, upper_value?}}}`.

Bencher's built-in measures keep their meaning (`latency` ns, `throughput` operations/s,
`build-time` s, `file-size` bytes). Any other measure becomes a metric named after its slug
(dashes to underscores) whose unit is the slug; it is higher-is-better only when it reads as a
rate (`..._per_second`, `.../s`, `ops`), else lower-is-better. `lower_value`/`upper_value`
are a range, not samples, so only `value` is kept.
"""

from __future__ import annotations

from pathlib import Path

from benchdash_runner.adapters._base import (
    HIGHER,
    LOWER,
    AdapterError,
    Result,
    direction_for_unit,
    load_json,
    metric_name_for_unit,
    number,
)
from benchdash_runner.document import metric

_BUILT_IN = {  # measure slug -> (metric name, unit, direction)
    "latency": ("latency", "ns", LOWER),
    "throughput": ("throughput", "ops/s", HIGHER),
    "build-time": ("build_time", "s", LOWER),
    "file-size": ("file_size", "bytes", LOWER),
}


def parse(paths: list[Path]) -> list[Result]:
    """Parse each BMF file into one result per benchmark."""
    results: list[Result] = []
    for path in paths:
        data = load_json(path)
        if not isinstance(data, dict) or not data:
            raise AdapterError(path, "expected a non-empty object {benchmark: {measure: {value}}}")
        for bench, measures in data.items():
            if not isinstance(measures, dict) or not measures:
                raise AdapterError(path, f"benchmark {bench!r}: expected an object of measures")
            metrics = []
            for slug, body in measures.items():
                if not isinstance(body, dict) or "value" not in body:
                    raise AdapterError(path, f"{bench!r}.{slug!r}: expected an object with 'value'")
                value = number(path, body["value"], f"{bench!r}.{slug!r}.value")
                name, unit, direction = _BUILT_IN.get(
                    slug,
                    (metric_name_for_unit(slug), slug, direction_for_unit(slug.replace("-", "_"))),
                )
                metrics.append(metric(name, unit, direction, value=value))
            results.append({"benchmark": bench, "parameters": {}, "metrics": metrics})
    return results
