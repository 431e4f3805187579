"""`gungraun` (formerly iai-callgrind, also accepted as `iai-callgrind`): the text `cargo bench`
prints for Gungraun benchmarks run under Valgrind's Callgrind.

A header `module::group::function id:(args)` (iai-callgrind: `id:args`) starts a benchmark,
named by its path; `id` and `args` become parameters (`args` read as a number when it is one).
Each line under it, `  Instructions:   1789|1734   (+3.17%)`, is a metric: the new value is
taken, the old one (a baseline, or `N/A` on a first run) and the change are left to benchdash.
Callgrind counts are deterministic, so each is value-only (appended runs become samples):
`instructions` (instructions), `estimated_cycles` (cycles), `l1_hits`, `ll_hits`, `ram_hits`,
`total_read_write` and any other counter (count), all lower is better; a `%` value (a hit or
miss rate, with `--output-format`) keeps `%`. The closing `Gungraun result:` line is skipped.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

from benchdash_runner.adapters._base import (
    LOWER,
    AdapterError,
    Result,
    metric_name_for_unit,
    read_text,
    scalar,
    text_number,
)
from benchdash_runner.document import metric

_HEADER = re.compile(r"^(?P<path>[A-Za-z_]\w*(?:::\w+)+)(?: (?P<id>[^\s:]+):(?P<args>.*))?$")
_METRIC = re.compile(r"^\s+(?P<name>[A-Za-z][\w +/.-]*):\s+(?P<new>\S+?)\|(?P<old>\S+)(?:\s.*)?$")
_UNITS = {"instructions": "instructions", "estimated_cycles": "cycles"}


def parse(paths: list[Path]) -> list[Result]:
    """One result per benchmark (path + id); appended runs add samples."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for path in paths:
        current: dict[str, Any] | None = None
        count = 0
        for lineno, line in enumerate(read_text(path).splitlines(), start=1):
            if m := _HEADER.match(line):
                count += 1
                params: dict[str, Any] = {}
                if m["id"]:
                    args = m["args"].strip()
                    if args.startswith("(") and args.endswith(")"):
                        args = args[1:-1]
                    params = {"id": m["id"], "args": scalar(args)}
                key = (m["path"], repr(sorted(params.items())))
                current = found.setdefault(
                    key, {"path": m["path"], "params": params, "m": {}, "at": (path, lineno)}
                )
            elif current is not None and (m := _METRIC.match(line)):
                if m["new"] in ("N/A", "-"):
                    continue  # not measured in this run
                unit = "%" if m["new"].endswith("%") else None
                value = text_number(path, lineno, m["new"].rstrip("%"))
                name = metric_name_for_unit(m["name"].replace("+", " "))
                unit = unit or _UNITS.get(name, "count")
                current["m"].setdefault(name, (unit, []))[1].append(value)
            elif line.strip() and not line.startswith(" "):
                current = None  # a summary or another tool's line ends the benchmark
        if not count:
            raise AdapterError(path, "no `module::group::function` benchmark headers found")
    results = []
    for entry in found.values():
        if not entry["m"]:
            at_path, at_line = entry["at"]
            raise AdapterError(at_path, f"{entry['path']}: no metric lines", at_line)
        metrics = [
            metric(name, unit, LOWER, value=v[0])
            if len(v) == 1
            else metric(name, unit, LOWER, samples=v)
            for name, (unit, v) in entry["m"].items()
        ]
        results.append(
            {"benchmark": entry["path"], "parameters": entry["params"], "metrics": metrics}
        )
    return results


def sniff(text: str) -> bool:
    """A benchmark header followed by an `Instructions:  new|old` line."""
    lines = text.splitlines()
    return any(
        _HEADER.match(a) and b.strip().startswith("Instructions:") and _METRIC.match(b)
        for a, b in itertools.pairwise(lines)
    )
