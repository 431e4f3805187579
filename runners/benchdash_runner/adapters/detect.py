"""`--format auto`: tell a file's format from its content, not its name.

Every format has a sniffer that looks for what only that tool writes (pyperf's `runs`, asv's
`result_columns`, wrk's `Running ... test @`, ...). A file must match exactly one: none is an
error listing the formats tried, two or more is an error naming them, so a guess never turns
into a wrong upload. github-action-benchmark files do not say which way is better; auto picks
`gab-bigger` when every unit is a rate (`ops/s`, `MB/s`), `gab-smaller` when none is, and
refuses a file that mixes them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchdash_runner.adapters import (
    ab,
    asv,
    catch2,
    gobench,
    gotest_json,
    gungraun,
    hey,
    jmh,
    k6,
    libtest,
    oha,
    pyperf,
    vitest,
)
from benchdash_runner.adapters._base import AdapterError, direction_for_unit

_NOT_JSON = object()


@dataclass
class Probe:
    """What the sniffers look at: the path, its text and its JSON (whole file or first line)."""

    path: Path
    text: str = ""
    data: Any = _NOT_JSON
    first_line: Any = _NOT_JSON
    is_dir: bool = False
    notes: list[str] = field(default_factory=list)


def _dict(p: Probe) -> dict[str, Any]:
    return p.data if isinstance(p.data, dict) else {}


def _entries(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, list) and value and all(isinstance(e, dict) for e in value):
        return value
    return []


def _criterion(p: Probe) -> bool:
    if p.is_dir:
        return any(b.parent.name == "new" for b in p.path.rglob("benchmark.json"))
    return p.path.name == "benchmark.json" and "group_id" in _dict(p)


def _bmf(p: Probe) -> bool:
    d = _dict(p)
    return bool(d) and all(
        isinstance(m, dict)
        and bool(m)
        and all(isinstance(v, dict) and "value" in v and len(v) <= 3 for v in m.values())
        for m in d.values()
    )


def _gab(p: Probe) -> bool:
    items = _entries(p.data)
    return bool(items) and all({"name", "unit", "value"} <= set(e) for e in items)


def _gab_direction(p: Probe, want: str) -> bool:
    if not _gab(p):
        return False
    units = sorted({str(e["unit"]) for e in p.data})
    kinds = {direction_for_unit(u) for u in units}
    if len(kinds) > 1:
        p.notes.append(f"github-action-benchmark units mix rates and costs ({', '.join(units)})")
        return False
    return kinds == {want}


def _gbench(p: Probe) -> bool:
    d = _dict(p)
    return "context" in d and any("run_name" in e for e in _entries(d.get("benchmarks")))


def _hyperfine(p: Probe) -> bool:
    return any("command" in e for e in _entries(_dict(p).get("results")))


def _pytest_benchmark(p: Probe) -> bool:
    d = _dict(p)
    benches = _entries(d.get("benchmarks"))
    return "machine_info" in d and all("stats" in e for e in benches)


def _wrk(p: Probe) -> bool:
    return "Requests/sec:" in p.text and any(
        line.startswith("Running ") and " test @ " in line for line in p.text.splitlines()
    )


def _text(p: Probe) -> bool:
    return p.data is _NOT_JSON and p.first_line is _NOT_JSON and not p.is_dir


SNIFFERS: dict[str, Callable[[Probe], bool]] = {
    "ab": lambda p: _text(p) and ab.sniff(p.text),
    "asv": lambda p: asv.sniff(p.data),
    "benchdash": lambda p: _dict(p).get("schema") == "benchdash/v1",
    "bmf": _bmf,
    "catch2": lambda p: _text(p) and catch2.sniff(p.text),
    "criterion": _criterion,
    "gab-bigger": lambda p: _gab_direction(p, "higher_is_better"),
    "gab-smaller": lambda p: _gab_direction(p, "lower_is_better"),
    "gbench": _gbench,
    "gobench": lambda p: _text(p) and gobench.sniff(p.text),
    "gotest-json": lambda p: p.data is _NOT_JSON and gotest_json.sniff(p.first_line),
    "gungraun": lambda p: _text(p) and gungraun.sniff(p.text),
    "hey": lambda p: _text(p) and hey.sniff(p.text),
    "hyperfine": _hyperfine,
    "jmh": lambda p: jmh.sniff(p.data),
    "k6": lambda p: k6.sniff(p.data),
    "libtest": lambda p: _text(p) and libtest.sniff(p.text),
    "oha": lambda p: oha.sniff(p.data),
    "pyperf": lambda p: pyperf.sniff(p.data),
    "pytest-benchmark": _pytest_benchmark,
    "vitest": lambda p: vitest.sniff(p.data),
    "wrk": lambda p: _text(p) and _wrk(p),
}


def probe(path: Path) -> Probe:
    """Read `path` once for the sniffers (a directory is only listed)."""
    if path.is_dir():
        return Probe(path, is_dir=True)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise AdapterError(path, f"cannot read: {e.strerror}") from None
    if raw[:2] == b"\x1f\x8b":
        raise AdapterError(path, "gzip-compressed: decompress it first (gunzip), then upload")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise AdapterError(path, "not UTF-8 text: cannot tell its format") from None
    p = Probe(path, text=text)
    stripped = text.lstrip()
    if stripped[:1] in ("{", "["):
        try:
            p.data = json.loads(text)
        except json.JSONDecodeError:
            first = stripped.split("\n", 1)[0]
            try:
                p.first_line = json.loads(first)
            except json.JSONDecodeError as e:
                p.notes.append(f"looks like JSON but is not: {e.msg} (line {e.lineno})")
    return p


def detect(path: Path) -> str:
    """Return the one format `path` is in, or raise AdapterError saying why it cannot tell."""
    p = probe(path)
    matches = [name for name, sniff in SNIFFERS.items() if sniff(p)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise AdapterError(
            path,
            f"matches several formats ({', '.join(matches)}): give --format with one of them",
        )
    why = f" ({'; '.join(p.notes)})" if p.notes else ""
    raise AdapterError(
        path,
        f"cannot tell the format{why}; give --format (known: {', '.join(sorted(SNIFFERS))})",
    )


def detect_all(paths: list[Path]) -> str:
    """The one format all `paths` share; files of different formats are an error."""
    found = {path: detect(path) for path in paths}
    formats = sorted(set(found.values()))
    if len(formats) > 1:
        listing = ", ".join(f"{p} is {f}" for p, f in found.items())
        raise AdapterError(
            paths[0], f"inputs are in different formats ({listing}): upload them separately"
        )
    return formats[0]
