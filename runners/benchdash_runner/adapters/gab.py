"""`gab-bigger` / `gab-smaller`: github-action-benchmark's custom JSON.

The file is a list of `{name, unit, value, range?, extra?}`; the direction is not in the
file (the action takes it from `tool: customBiggerIsBetter|customSmallerIsBetter`), so it
is in the format name. The metric is named from the unit: time units give `time`, anything
else the unit's snake_case form with `/` read as "per" (`items_per_s`, `mb_per_s`, `allocs`),
so two rates in different units never share a metric name.
"""

from __future__ import annotations

from pathlib import Path

from benchdash_runner.adapters._base import (
    HIGHER,
    LOWER,
    NS_PER,
    AdapterError,
    Result,
    load_json,
    metric_name_for_unit,
    number,
)
from benchdash_runner.document import metric


def parse_bigger(paths: list[Path]) -> list[Result]:
    """Parse `customBiggerIsBetter` files: every value is higher-is-better."""
    return _parse(paths, HIGHER)


def parse_smaller(paths: list[Path]) -> list[Result]:
    """Parse `customSmallerIsBetter` files: every value is lower-is-better."""
    return _parse(paths, LOWER)


def metric_name(unit: str) -> str:
    """Name the metric of a gab entry after its unit."""
    base = unit.strip().split("/")[0].lower()
    if base in NS_PER or base in ("sec", "secs", "seconds", "millis"):
        return "time"
    return metric_name_for_unit(unit)


def _parse(paths: list[Path], direction: str) -> list[Result]:
    results: list[Result] = []
    for path in paths:
        data = load_json(path)
        if not isinstance(data, list) or not data:
            raise AdapterError(path, "expected a non-empty list of {name, unit, value}")
        for i, entry in enumerate(data):
            if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
                raise AdapterError(path, f"[{i}]: expected an object with a 'name'")
            unit = entry.get("unit")
            if not isinstance(unit, str):
                raise AdapterError(path, f"[{i}] ({entry['name']}): 'unit' must be a string")
            value = number(path, entry.get("value"), f"[{i}] ({entry['name']}).value")
            results.append(
                {
                    "benchmark": entry["name"],
                    "parameters": {},
                    "metrics": [metric(metric_name(unit), unit, direction, value=value)],
                }
            )
    return results
