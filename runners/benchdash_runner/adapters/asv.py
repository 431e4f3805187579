"""`asv`: a result file of airspeed velocity, `results/<machine>/<commit>-<env>.json` (version 2).

Each benchmark (`module.Class.time_x`) gives one result per combination of its parameters. The
parameter names come from `results/benchmarks.json` two folders up when it is there (asv
writes it beside the machine folders), else they are `param1`, `param2`...; asv's values are
Python reprs (`'list'`) and are read back as numbers or strings. The kind comes from
benchmarks.json's `type`, else from the name's prefix: `time_` -> `time` in ns, `mem_` ->
`memory` and `peakmem_` -> `peak_memory` in bytes, `track_` -> `value` in the benchmark's
`unit`; asv treats every increase as a regression, so all are lower-is-better. With `asv run
--record-samples` the samples are kept; otherwise asv's result (the median) is the value.
Combinations asv could not measure (null: failed or skipped) are left out.
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path
from typing import Any

from benchdash_runner.adapters._base import LOWER, AdapterError, Result, load_json, number, scalar
from benchdash_runner.document import metric

_KINDS = {  # type -> (metric, unit, scale)
    "time": ("time", "ns", 1e9),
    "memory": ("memory", "bytes", 1.0),
    "peakmemory": ("peak_memory", "bytes", 1.0),
}
_PREFIXES = {"time": "time", "mem": "memory", "peakmem": "peakmemory", "track": "track"}


def parse(paths: list[Path]) -> list[Result]:
    """One result per benchmark and parameter combination of each results file."""
    results: list[Result] = []
    for path in paths:
        data = load_json(path)
        if not sniff(data):
            raise AdapterError(
                path, "expected an asv results file (with 'result_columns' and 'results')"
            )
        columns = data["result_columns"]
        if "result" not in columns or "params" not in columns:
            raise AdapterError(path, f"result_columns lacks 'result' or 'params': {columns}")
        described = _benchmarks_json(path)
        for name, row in data["results"].items():
            if not isinstance(row, list):
                raise AdapterError(path, f"{name}: expected a list of columns")
            cells = dict(zip(columns, row, strict=False))
            results.extend(_one(path, str(name), cells, described.get(name) or {}))
    return results


def sniff(data: Any) -> bool:
    """asv results: `result_columns`, `results` and `commit_hash`."""
    return isinstance(data, dict) and {"result_columns", "results", "commit_hash"} <= set(data)


def _benchmarks_json(path: Path) -> dict[str, Any]:
    beside = path.resolve().parent.parent / "benchmarks.json"
    if not beside.is_file():
        return {}
    data = load_json(beside)
    return data if isinstance(data, dict) else {}


def _one(path: Path, name: str, cells: dict[str, Any], described: dict[str, Any]) -> list[Result]:
    kind = described.get("type") or _PREFIXES.get(name.rsplit(".", 1)[-1].split("_", 1)[0])
    if kind is None:
        raise AdapterError(path, f"{name}: cannot tell its kind (no benchmarks.json, no prefix)")
    metric_name, unit, scale = _KINDS.get(kind, ("value", str(described.get("unit") or "value"), 1))
    values = cells.get("result")
    if not isinstance(values, list):
        values = [values]
    params = cells.get("params") or []
    names = described.get("param_names") or [f"param{k + 1}" for k in range(len(params))]
    combos = list(itertools.product(*params)) if params else [()]
    if len(combos) != len(values):
        raise AdapterError(path, f"{name}: {len(values)} results for {len(combos)} combinations")
    samples_col = cells.get("samples") or [None] * len(values)
    out = []
    for k, (combo, value) in enumerate(zip(combos, values, strict=True)):
        if value is None:
            continue  # asv could not measure this combination
        where = f"{name}[{k}]"
        samples = samples_col[k] if k < len(samples_col) else None
        if isinstance(samples, list) and samples:
            got = [number(path, s, f"{where}.samples") * scale for s in samples]
            m = metric(metric_name, unit, LOWER, samples=got)
        else:
            m = metric(metric_name, unit, LOWER, value=number(path, value, where) * scale)
        parameters = {str(n): _literal(v) for n, v in zip(names, combo, strict=False)}
        out.append({"benchmark": name, "parameters": parameters, "metrics": [m]})
    return out


def _literal(text: Any) -> Any:
    """asv stores parameter values as their repr: `'list'` -> list, `10` -> 10."""
    try:
        value = ast.literal_eval(str(text))
    except (ValueError, SyntaxError):
        return scalar(str(text))
    return value if isinstance(value, (int, float, str)) and not isinstance(value, bool) else text
