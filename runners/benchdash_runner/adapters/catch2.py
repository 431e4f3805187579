"""`catch2`: the XML that a Catch2 test binary writes with `-r xml` (`--reporter xml`).

Every `<BenchmarkResults>` is one benchmark, named by its test case, the sections around it
and its own name (`sorting/sort 100`). Catch2 writes every value in nanoseconds and keeps
only statistics of its samples (the bootstrapped mean and standard deviation), so `time` in ns
(lower is better) is the mean, value-only. Test cases without benchmarks are skipped; the
root element may be Catch2 v2's `<Catch>` or v3's `<Catch2TestRun>`.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from benchdash_runner.adapters._base import LOWER, AdapterError, Result, read_text
from benchdash_runner.document import metric

_ROOTS = ("Catch", "Catch2TestRun")


def parse(paths: list[Path]) -> list[Result]:
    """One result per benchmark of each file."""
    results: list[Result] = []
    for path in paths:
        try:
            root = ET.fromstring(read_text(path))
        except ET.ParseError as e:
            line, col = e.position
            raise AdapterError(path, f"invalid XML (column {col})", line) from None
        if root.tag not in _ROOTS:
            raise AdapterError(path, f"root element <{root.tag}> is not Catch2's <Catch>")
        found = 0
        for case in root.iter("TestCase"):
            for names, bench in _benchmarks(case, [case.get("name", "")]):
                found += 1
                results.append(_one(path, names, bench))
        if not found:
            raise AdapterError(path, "no <BenchmarkResults>: run with benchmarks enabled")
    return results


def sniff(text: str) -> bool:
    """An XML document whose root is Catch2's and that holds benchmark results."""
    head = text[:2000]
    return ("<Catch " in head or "<Catch2TestRun" in head) and "<BenchmarkResults" in text


def _benchmarks(elem: ET.Element, names: list[str]) -> list[tuple[list[str], ET.Element]]:
    out = []
    for child in elem:
        if child.tag == "BenchmarkResults":
            out.append(([*names, child.get("name", "")], child))
        elif child.tag == "Section":
            out.extend(_benchmarks(child, [*names, child.get("name", "")]))
    return out


def _one(path: Path, names: list[str], bench: ET.Element) -> Result:
    name = "/".join(n for n in names if n)
    mean = bench.find("mean")
    text = mean.get("value") if mean is not None else None
    try:
        value = float(text) if text is not None else None
    except ValueError:
        value = None
    if value is None or value != value or value in (float("inf"), float("-inf")):
        raise AdapterError(path, f"benchmark {name!r}: no numeric <mean value=...>")
    return {
        "benchmark": name,
        "parameters": {},
        "metrics": [metric("time", "ns", LOWER, value=value)],
    }
