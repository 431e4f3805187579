"""Read a history file into its runs, in the order they go in, checked before anything is sent.

Formats: `gab` (github-action-benchmark's data.js), `asv` (a results tree), `bencher` (Bencher's
perf JSON), `benchdash` (benchdash's export); `auto` tells them apart by content. A history is
brought in in date order (a benchdash export in its own, ingest, order); every document is
checked as `benchdash upload` checks one, and each metric must keep one unit and direction
through the history (the server refuses a change half-way, after part of it is stored).
"""

from __future__ import annotations

from pathlib import Path

from benchdash_runner import document
from benchdash_runner.adapters import asv
from benchdash_runner.adapters._base import AdapterError, load_json
from benchdash_runner.history import asv_tree, bencher, gab_data, own
from benchdash_runner.history.entries import Entry, HistoryError, Options

FORMATS = ("auto", "gab", "asv", "bencher", "benchdash")


def detect(path: Path) -> str:
    """The format of `path` from its content, or HistoryError naming what it is not."""
    if path.is_dir():
        if asv_tree.sniff(path):
            return "asv"
        raise HistoryError(path, "a folder that is not an asv results tree (no benchmarks.json "
                           "or machine.json)")  # fmt: skip
    try:
        with path.open(encoding="utf-8") as f:
            head = f.read(8192)
    except (OSError, UnicodeDecodeError) as e:
        raise AdapterError(path, f"cannot read: {e}") from None
    if own.sniff(head.split("\n", 1)[0]):
        return "benchdash"
    if gab_data.sniff(head):
        return "gab"
    data = load_json(path)
    if bencher.sniff(data):
        return "bencher"
    if asv.sniff(data):
        return "asv"
    raise HistoryError(path, "cannot tell its format (not a data.js, an asv results tree, "
                       "Bencher's perf JSON or a benchdash export): pass --format")  # fmt: skip


def read(path: Path, fmt: str, opts: Options, skipped: dict[str, int]) -> tuple[str, list[Entry]]:
    """The chosen format and the checked runs of `path`, in the order they are to be sent."""
    if not path.exists():
        raise AdapterError(path, "no such file or folder")
    chosen = detect(path) if fmt == "auto" else fmt
    if chosen == "gab":
        entries = gab_data.read(path, opts)
    elif chosen == "asv":
        entries = asv_tree.read(path, opts)
    elif chosen == "bencher":
        entries = bencher.read(path, opts)
    else:
        entries = own.read(path, opts, skipped)
    if not entries:
        raise HistoryError(path, "holds no runs")
    entries.sort(key=lambda e: e.order)
    units: dict[tuple[str, str], tuple[str, str, str]] = {}
    for e in entries:
        try:
            document.validate(e.document)
        except document.DocumentError as err:
            raise HistoryError(e.where, f"not a run benchdash can store: {err}") from None
        for result in e.document["results"]:
            for m in result["metrics"]:
                key, seen = (e.document["system"], m["name"]), (m["unit"], m["direction"], e.where)
                first = units.setdefault(key, seen)
                if first[:2] != seen[:2]:
                    raise HistoryError(
                        e.where,
                        f"metric {m['name']!r} is {m['unit']} {m['direction']} here but "
                        f"{first[0]} {first[1]} at {first[2]}: one metric keeps one unit",
                    )
    return chosen, entries
