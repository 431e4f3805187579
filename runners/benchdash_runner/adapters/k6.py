"""`k6`: the file `k6 run --summary-export FILE script.js` writes (the end-of-test summary).

k6 does not write the script's name, so the benchmark is named after the file (`api.json` ->
`api`, as for wrk and ab); the peak of virtual users (`vus_max`) is a parameter. A submetric
(`http_req_duration{expected_response:true}`) becomes a result of its own whose parameters are
its tags. Each k6 metric becomes metrics by its type:

- trend (`avg`, `med`, `p(95)`...): `<name>_avg`, `_min`, `_med`, `_max`, `_p90`, `_p95`... in
  ms for k6's built-in timings (`http_req_*`, `iteration_duration`, `group_duration`), else in
  the trend's own unit (`value`); lower is better;
- counter (`count`, `rate`): `<name>_per_s` per second (`data_received` in bytes/s), higher is
  better unless the name speaks of errors or failures;
- rate (`passes`, `fails`, `value`): `<name>` as a ratio 0-1, higher is better (`checks`) unless
  it speaks of failures (`http_req_failed`);
- gauges (`vus`) describe the load, not its result, and are left out.

A summary holds one run: files of the same name (one folder per run) become samples.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from benchdash_runner.adapters._base import (
    HIGHER,
    LOWER,
    AdapterError,
    Result,
    load_json,
    metric_name_for_unit,
    number,
    scalar,
)
from benchdash_runner.document import metric

_TIMINGS = re.compile(r"^(http_req_\w+|iteration_duration|group_duration)$")
_BAD = re.compile(r"(error|fail)", re.IGNORECASE)
_SUB = re.compile(r"^(?P<name>[^{]+)\{(?P<tags>.*)\}$")
_BYTES = ("data_received", "data_sent")


def parse(paths: list[Path]) -> list[Result]:
    """One result per file name and tag set; same-named files add samples."""
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    for path in paths:
        data = load_json(path)
        if not sniff(data):
            raise AdapterError(
                path, "expected k6 --summary-export JSON: 'metrics' and 'root_group'"
            )
        vus = (data["metrics"].get("vus_max") or {}).get("max")
        base = {"vus_max": int(vus)} if isinstance(vus, (int, float)) else {}
        for key, stats in data["metrics"].items():
            if not isinstance(stats, dict):
                raise AdapterError(path, f"metrics[{key!r}] is not an object")
            name, tags = _split(str(key))
            params = {**base, **tags}
            entry = groups.setdefault(
                (path.stem, repr(sorted(params.items()))),
                {"benchmark": path.stem, "parameters": params, "m": {}},
            )
            for mname, unit, direction, value in _metrics(path, name, stats):
                entry["m"].setdefault(mname, (unit, direction, []))[2].append(value)
    results = []
    for entry in groups.values():
        if not entry["m"]:
            continue  # only gauges under this tag set
        metrics = [metric(n, u, d, samples=v) for n, (u, d, v) in entry["m"].items()]
        results.append(
            {"benchmark": entry["benchmark"], "parameters": entry["parameters"], "metrics": metrics}
        )
    return results


def sniff(data: Any) -> bool:
    """k6's summary export: `metrics` (an object of objects) and `root_group`."""
    return (
        isinstance(data, dict)
        and isinstance(data.get("metrics"), dict)
        and isinstance(data.get("root_group"), dict)
    )


def _split(key: str) -> tuple[str, dict[str, Any]]:
    m = _SUB.match(key)
    if not m:
        return key, {}
    tags: dict[str, Any] = {}
    for part in m["tags"].split(","):
        tag, _, value = part.partition(":")
        if tag.strip():
            tags[tag.strip()] = scalar(value.strip())
    return m["name"], tags


def _metrics(path: Path, name: str, stats: dict[str, Any]) -> list[tuple[str, str, str, float]]:
    where = f"metrics[{name!r}]"
    snake = metric_name_for_unit(name)
    bad = bool(_BAD.search(name))
    out = []
    if "avg" in stats:  # trend
        unit = "ms" if _TIMINGS.match(name) else "value"
        for stat, raw in stats.items():
            if stat == "thresholds":
                continue
            suffix = metric_name_for_unit(stat.replace("(", "").replace(")", ""))
            label = suffix if not suffix[0].isdigit() else f"p{suffix}"
            value = number(path, raw, f"{where}.{stat}")
            out.append((f"{snake}_{label}", unit, LOWER, value))
    elif "rate" in stats and "count" in stats:  # counter
        unit = "bytes/s" if name in _BYTES else "1/s"
        value = number(path, stats["rate"], f"{where}.rate")
        out.append((f"{snake}_per_s", unit, LOWER if bad else HIGHER, value))
    elif "passes" in stats and "fails" in stats:  # rate
        value = number(path, stats.get("value"), f"{where}.value")
        out.append((snake, "ratio", LOWER if bad else HIGHER, value))
    return out
