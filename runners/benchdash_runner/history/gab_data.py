"""github-action-benchmark's `data.js` (its `gh-pages` history): `window.BENCHMARK_DATA = {...}`.

`entries` maps each benchmark suite name (the action's `name`) to its runs, oldest first: each
`{commit: {id, timestamp, message, url, ...}, date (ms), tool, benches: [{name, value, unit,
range?, extra?}]}`. One run a suite entry; a bench keeps its name, with the suite as the
parameter `suite` (two suites may hold benches of one name); the metric is named from the unit
as `--format gab-*` does, and its direction is the tool's (bigger is better for `benchmarkjs`,
`pytest` and `customBiggerIsBetter`, as the action itself decides). `range` and `extra` are
text for a tooltip, not samples: not kept. `data.json` (the same object as plain JSON) works
too.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from benchdash_runner.adapters import gab
from benchdash_runner.adapters._base import HIGHER, LOWER, number, read_text
from benchdash_runner.document import metric
from benchdash_runner.history.entries import (
    Entry,
    HistoryError,
    Options,
    document,
    external_id,
    from_ms,
    utc_key,
)

TOOLS = {  # the action's tools: is a bigger value better?
    "cargo": False, "go": False, "benchmarkjs": True, "benchmarkluau": False, "pytest": True,
    "googlecpp": False, "catch2": False, "julia": False, "jmh": False, "benchmarkdotnet": False,
    "customBiggerIsBetter": True, "customSmallerIsBetter": False,
}  # fmt: skip
_PREFIX = re.compile(r"^\s*window\.BENCHMARK_DATA\s*=\s*")
TESTBED = "github-action-benchmark"


def sniff(text: str) -> bool:
    """A data.js: the assignment the action writes, or its JSON with `entries`."""
    return bool(_PREFIX.match(text)) or ('"entries"' in text[:4096] and '"benches"' in text)


def load(path: Path) -> dict[str, Any]:
    """The BENCHMARK_DATA object of a data.js (or data.json)."""
    text = read_text(path)
    body = _PREFIX.sub("", text, count=1).rstrip().removesuffix(";")
    try:
        data = json.loads(body)
    except json.JSONDecodeError as e:
        raise HistoryError(path, f"not the JSON the action writes: {e.msg}", e.lineno) from None
    if not isinstance(data, dict) or not isinstance(data.get("entries"), dict):
        raise HistoryError(path, "expected window.BENCHMARK_DATA = {'entries': {suite: [...]}}")
    return data


def read(path: Path, opts: Options) -> list[Entry]:
    """One entry a suite's run, in the file's order."""
    if opts.system is None:
        raise HistoryError(path, "a data.js names no system: pass --system")
    data = load(path)
    out: list[Entry] = []
    for suite, runs in data["entries"].items():
        if not isinstance(runs, list):
            raise HistoryError(path, f"entries[{suite!r}]: expected a list of runs")
        for i, run in enumerate(runs):
            where = f"{path}: entries[{suite!r}][{i}]"
            out.append(_entry(path, where, str(suite), run, opts, len(out)))
    return out


def _entry(path: Path, where: str, suite: str, run: Any, opts: Options, position: int) -> Entry:
    if not isinstance(run, dict):
        raise HistoryError(path, f"{where}: expected an object")
    tool = run.get("tool")
    if tool not in TOOLS:
        raise HistoryError(path, f"{where}.tool: unknown tool {tool!r} (known: {', '.join(TOOLS)})")
    direction = HIGHER if TOOLS[tool] else LOWER
    date = number(path, run.get("date"), f"{where}.date (ms since the epoch)")
    commit: dict[str, Any] = run["commit"] if isinstance(run.get("commit"), dict) else {}
    sha = commit.get("id") if isinstance(commit.get("id"), str) else None
    benches = run.get("benches")
    if not isinstance(benches, list) or not benches:
        raise HistoryError(path, f"{where}.benches: expected a non-empty list")
    results = []
    for j, bench in enumerate(benches):
        at = f"{where}.benches[{j}]"
        if not isinstance(bench, dict) or not isinstance(bench.get("name"), str):
            raise HistoryError(path, f"{at}: expected an object with a 'name'")
        unit = bench.get("unit")
        if not isinstance(unit, str) or not unit.strip():
            raise HistoryError(path, f"{at} ({bench['name']}).unit: must be a non-empty string")
        value = number(path, bench.get("value"), f"{at} ({bench['name']}).value")
        results.append(
            {
                "benchmark": bench["name"],
                "parameters": {"suite": suite},
                "metrics": [metric(gab.metric_name(unit), unit, direction, value=value)],
            }
        )
    started = from_ms(date)
    key = external_id("gab", suite, sha or "no-commit", str(int(date)))
    meta = {"external_id": key, "commit": sha, "started_at": started, "finished_at": started}
    doc = document(
        opts=Options(opts.system, opts.branch, opts.testbed or TESTBED, opts.historical),
        system=str(opts.system),
        run=meta,
        results=results,
        configuration={"imported_from": "github-action-benchmark", "suite": suite, "tool": tool},
    )
    return Entry(where=where, document=doc, order=(utc_key(started), position))
