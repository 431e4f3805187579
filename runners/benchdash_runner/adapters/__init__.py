"""Format adapters: each turns one harness's native output into `benchdash/v1` results.

Every adapter exposes `parse(paths: list[Path]) -> list[dict]` returning `results` entries
({benchmark, parameters, metrics}) and raises AdapterError naming the file (and line).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from benchdash_runner.adapters import (
    ab,
    asv,
    bmf,
    catch2,
    criterion,
    gab,
    gbench,
    gobench,
    gotest_json,
    gungraun,
    hey,
    hyperfine,
    jmh,
    k6,
    libtest,
    oha,
    pyperf,
    pytest_benchmark,
    vitest,
    wrk,
)
from benchdash_runner.adapters import benchdash as benchdash_format
from benchdash_runner.adapters._base import AdapterError, Result

Parser = Callable[[list[Path]], list[Result]]

ADAPTERS: dict[str, Parser] = {
    "benchdash": benchdash_format.parse,
    "criterion": criterion.parse,
    "gobench": gobench.parse,
    "gbench": gbench.parse,
    "pytest-benchmark": pytest_benchmark.parse,
    "wrk": wrk.parse,
    "bmf": bmf.parse,
    "hyperfine": hyperfine.parse,
    "gab-bigger": gab.parse_bigger,
    "gab-smaller": gab.parse_smaller,
    "jmh": jmh.parse,
    "catch2": catch2.parse,
    "pyperf": pyperf.parse,
    "asv": asv.parse,
    "libtest": libtest.parse,
    "gotest-json": gotest_json.parse,
    "ab": ab.parse,
    "hey": hey.parse,
    "vitest": vitest.parse,
    "oha": oha.parse,
    "gungraun": gungraun.parse,
    "k6": k6.parse,
}
# Other names of a format (iai-callgrind was renamed gungraun; its output has the same shape).
ALIASES = {"iai-callgrind": "gungraun"}

__all__ = ["ADAPTERS", "ALIASES", "AdapterError", "Parser", "Result", "get", "names", "parse"]


def names() -> list[str]:
    """Return the registered format names."""
    return sorted(ADAPTERS)


def get(name: str) -> Parser:
    """Return the parser for a format name or raise KeyError with the known names."""
    try:
        return ADAPTERS[ALIASES.get(name, name)]
    except KeyError:
        hint = " (gab needs a direction: gab-bigger or gab-smaller)" if name == "gab" else ""
        raise KeyError(f"unknown format {name!r}{hint}; known: {', '.join(names())}") from None


def parse(name: str, paths: list[Path]) -> list[Result]:
    """Parse `paths` with the adapter for `name`; an empty parse is an AdapterError."""
    results = get(name)(paths)
    if not results:
        raise AdapterError(", ".join(str(p) for p in paths), f"no {name} results found")
    return results
