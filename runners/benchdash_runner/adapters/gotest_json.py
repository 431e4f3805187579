"""`gotest-json`: the event stream of `go test -json -bench . [-benchmem -count N]`.

One JSON object per line; the benchmark text is in the `Output` of `output` events. go test
splits a benchmark line over two events when the result comes after the name was printed
(`"BenchmarkX-2  \\t"` then `"  641322\\t 193.6 ns/op ..."`), so each package's outputs are
joined in order and cut at newlines before the lines are read exactly as `gobench` reads
them (names, `-P` and `key=value` parameters, units, one sample per `-count`), so a project
moving from the text to the JSON keeps its series; like there, same-named benchmarks of two
packages are merged. Errors name the JSON line of the event a text line started in.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchdash_runner.adapters import gobench
from benchdash_runner.adapters._base import AdapterError, Result, read_text


def parse(paths: list[Path]) -> list[Result]:
    """Collect the benchmark lines of every package's output in every file."""
    series: gobench.Series = {}
    for path in paths:
        found = 0
        for lines in _package_lines(path).values():
            found += gobench.collect(path, lines, series)
        if not found:
            raise AdapterError(path, "no benchmark lines in the go test -json output (-bench?)")
    return gobench.results_of(series)


def sniff(first: Any) -> bool:
    """The first JSON line of the stream: an event with `Action` and `Package` (or build)."""
    return (
        isinstance(first, dict)
        and "Action" in first
        and ("Package" in first or "ImportPath" in first)
    )


def _package_lines(path: Path) -> dict[str, list[tuple[int, str]]]:
    """Per package: its output text cut into lines, each with the JSON line it started on."""
    pending: dict[str, tuple[int, str]] = {}
    done: dict[str, list[tuple[int, str]]] = {}
    events = 0
    for lineno, raw in enumerate(read_text(path).splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            event = json.loads(raw)
        except json.JSONDecodeError as e:
            raise AdapterError(
                path, f"invalid JSON event: {e.msg} (column {e.colno})", lineno
            ) from None
        if not isinstance(event, dict) or "Action" not in event:
            raise AdapterError(path, "not a go test -json event (no Action)", lineno)
        events += 1
        if event["Action"] != "output" or not isinstance(event.get("Output"), str):
            continue
        pkg = str(event.get("Package", ""))
        start, text = pending.get(pkg, (lineno, ""))
        if not text:
            start = lineno  # a text line starts in this event
        text += event["Output"]
        *complete, rest = text.split("\n")
        out = done.setdefault(pkg, [])
        for line in complete:
            out.append((start, line))
            start = lineno
        pending[pkg] = (start, rest)
    if not events:
        raise AdapterError(path, "empty: no go test -json events")
    for pkg, (start, rest) in pending.items():
        if rest:
            done.setdefault(pkg, []).append((start, rest))
    return done
