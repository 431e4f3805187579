"""`libtest`: the text of Rust's built-in bench harness (`cargo +nightly bench` with `#[bench]`).

Each line `test name ... bench:   1,234.56 ns/iter (+/- 78.9)` is one benchmark (the same
line format that criterion's `--output-format bencher` prints). libtest reports the median
ns/iter of its samples and their spread (max - min), not the samples: `time` in ns (lower is
better) is value-only, and the spread is checked but not kept (it is noise, not a result). A
`= N MB/s` suffix (from `b.bytes`) becomes `throughput` in MB/s (higher is better). Lines of
several files or runs with the same name become samples of one benchmark. Other lines
(`running 4 tests`, ignored tests, `test result:`) are skipped.
"""

from __future__ import annotations

import re
from pathlib import Path

from benchdash_runner.adapters._base import (
    HIGHER,
    LOWER,
    AdapterError,
    Result,
    read_text,
    text_number,
)
from benchdash_runner.document import metric

_LINE = re.compile(
    r"^test (?P<name>\S+)\s+\.\.\. bench:\s+(?P<ns>[\d,.]+) ns/iter"
    r" \(\+/- (?P<dev>[\d,.]+)\)(?: = (?P<mbs>[\d,.]+) MB/s)?\s*$"
)
_START = re.compile(r"^test \S+\s+\.\.\. bench:")


def parse(paths: list[Path]) -> list[Result]:
    """One result per benchmark name; repeated runs add samples."""
    found: dict[str, dict[str, list[float]]] = {}
    for path in paths:
        count = 0
        for lineno, line in enumerate(read_text(path).splitlines(), start=1):
            if not _START.match(line):
                continue
            m = _LINE.match(line)
            if not m:
                raise AdapterError(path, f"cannot read the bench line {line.strip()!r}", lineno)
            count += 1
            entry = found.setdefault(m["name"], {})
            entry.setdefault("time", []).append(text_number(path, lineno, m["ns"]))
            text_number(path, lineno, m["dev"])
            if m["mbs"]:
                entry.setdefault("throughput", []).append(text_number(path, lineno, m["mbs"]))
        if not count:
            raise AdapterError(path, "no 'test x ... bench: N ns/iter' lines found")
    results = []
    for name, values in found.items():
        metrics = []
        for key, unit, direction in (
            ("time", "ns", LOWER),
            ("throughput", "MB/s", HIGHER),
        ):
            if key in values:
                v = values[key]
                metrics.append(
                    metric(key, unit, direction, value=v[0])
                    if len(v) == 1
                    else metric(key, unit, direction, samples=v)
                )
        results.append({"benchmark": name, "parameters": {}, "metrics": metrics})
    return results


def sniff(text: str) -> bool:
    """At least one libtest bench line."""
    return any(_LINE.match(line) for line in text.splitlines())
