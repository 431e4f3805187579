"""benchdash's own export (`benchdash export`, `GET /api/v1/export`): JSON lines of format
`benchdash-export/1`. Its `run` lines are brought back (each line's `document`); `change` and
`alert` lines are informational (counted, not imported); the `end` line must be there, else the
export was cut short and nothing is imported."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchdash_runner.adapters._base import AdapterError
from benchdash_runner.history.entries import Entry, HistoryError, Options, utc_key

FORMAT = "benchdash-export/1"


def sniff(first_line: str) -> bool:
    """The export's header line."""
    try:
        head = json.loads(first_line)
    except ValueError:
        return False
    return isinstance(head, dict) and head.get("kind") == "export"


def read(path: Path, opts: Options, skipped: dict[str, int]) -> list[Entry]:
    """One entry a `run` line; `skipped` counts the informational lines by kind."""
    out: list[Entry] = []
    systems: set[str] = set()
    ended = False
    try:
        lines = path.open(encoding="utf-8")
    except OSError as e:
        raise AdapterError(path, f"cannot read: {e.strerror}") from None
    with lines:
        for n, text in enumerate(lines, start=1):
            line = _parse(path, n, text)
            kind = line.get("kind")
            if n == 1 and (kind != "export" or line.get("format") != FORMAT):
                raise HistoryError(path, f"not a {FORMAT} export (its first line)", 1)
            if kind == "run":
                out.append(_entry(path, n, line, opts))
                systems.add(out[-1].document["system"])
            elif kind == "end":
                ended = True
            elif kind in ("change", "alert"):
                skipped[kind] = skipped.get(kind, 0) + 1
    if not ended:
        raise HistoryError(path, "the export is cut short (no end line): export it again")
    if opts.system and len(systems) > 1:
        raise HistoryError(
            path,
            f"the export holds {len(systems)} systems ({', '.join(sorted(systems))}): leave out "
            "--system to bring each run back to its own",
        )
    return out


def _parse(path: Path, n: int, text: str) -> dict[str, Any]:
    try:
        line = json.loads(text)
    except json.JSONDecodeError as e:
        raise HistoryError(path, f"not JSON: {e.msg} (column {e.colno})", n) from None
    if not isinstance(line, dict):
        raise HistoryError(path, "expected a JSON object a line", n)
    return line


def _entry(path: Path, n: int, line: dict[str, Any], opts: Options) -> Entry:
    doc = line.get("document")
    if not isinstance(doc, dict) or not isinstance(doc.get("run"), dict):
        raise HistoryError(path, "a run line without its document", n)
    doc = {**doc, "run": dict(doc["run"])}
    if opts.system:
        doc["system"] = opts.system
    for key, value in (("branch", opts.branch), ("testbed", opts.testbed)):
        if value:
            doc["run"][key] = value
    if opts.historical:
        doc["run"]["historical"] = True
    started = doc["run"].get("started_at")
    if not isinstance(started, str):
        raise HistoryError(path, "run.started_at: expected an ISO 8601 time", n)
    utc_key(started)  # a bad time is named here, not by the server
    return Entry(where=f"{path}:{n}", document=doc, order=("", n))  # ingest order, as exported
