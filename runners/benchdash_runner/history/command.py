"""`benchdash import` and `benchdash export`: history in and out (README: History in and out).

    benchdash import FILE --system S [--format auto|gab|asv|bencher|benchdash] [--historical]
    benchdash export [--system S] -o FILE

Both talk to $BENCHDASH_URL; import needs $BENCHDASH_TOKEN (an upload token of the system),
export sends it when set (reads may be public). Exit 0 on success, 1 on any error.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from benchdash_runner.adapters._base import AdapterError
from benchdash_runner.history import exporter, importer, sources
from benchdash_runner.history.entries import Options

COMMANDS = ("import", "export")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="benchdash", description="History in and out.")
    sub = parser.add_subparsers(dest="command", required=True)
    imp = sub.add_parser("import", help="bring a history in (data.js, asv results, Bencher, "
                         "a benchdash export) through POST /api/v1/results")  # fmt: skip
    imp.add_argument("path", type=Path, metavar="FILE", help="the file (or asv results folder)")
    imp.add_argument("--system", help="system slug (a benchdash export: default each run's own)")
    imp.add_argument("--format", choices=sources.FORMATS, default="auto")
    imp.add_argument(
        "--historical",
        action="store_true",
        help="alerts the history implies open acknowledged and notify nobody",
    )
    imp.add_argument("--branch", help="branch of every run (default: the source's, else main)")
    imp.add_argument("--testbed", help="testbed of every run (default: the source's)")
    imp.add_argument("--retries", type=int, default=5, metavar="N")
    imp.add_argument("--timeout", type=float, default=60.0, metavar="S")
    exp = sub.add_parser("export", help="write GET /api/v1/export to a file")
    exp.add_argument("--system", help="only this system (default: every system)")
    exp.add_argument("-o", "--output", type=Path, required=True, metavar="FILE")
    exp.add_argument("--timeout", type=float, default=300.0, metavar="S")
    return parser


def main(argv: list[str]) -> int:
    """Run `import` or `export` (argv starts with the command's name)."""
    ns = _parser().parse_args(argv)
    base_url = os.environ.get("BENCHDASH_URL", "").strip()
    token = os.environ.get("BENCHDASH_TOKEN", "").strip()
    needed = ("BENCHDASH_URL", "BENCHDASH_TOKEN") if ns.command == "import" else ("BENCHDASH_URL",)
    missing = [n for n in needed if not os.environ.get(n, "").strip()]
    if missing:
        return _error(f"{' and '.join(missing)} not set")
    if ns.command == "export":
        try:
            end = exporter.run(
                base_url=base_url, token=token, system=ns.system, out=ns.output, timeout=ns.timeout
            )
        except (exporter.ExportError, OSError) as e:
            return _error(str(e))
        print(f"wrote {ns.output}: {end.get('runs')} runs, {end.get('changes')} accepted "
              f"changes, {end.get('alerts')} alerts", file=sys.stderr)  # fmt: skip
        return 0
    opts = Options(ns.system, ns.branch, ns.testbed, ns.historical)
    skipped: dict[str, int] = {}
    try:
        fmt, entries = sources.read(ns.path, ns.format, opts, skipped)
    except AdapterError as e:
        return _error(f"{e}\nnothing was sent")
    print(f"{ns.path}: {fmt}, {len(entries)} runs", file=sys.stderr)
    try:
        done = importer.send(
            base_url=base_url, token=token, entries=entries, retries=ns.retries, timeout=ns.timeout
        )
    except importer.Refused as e:
        return _error(str(e))
    notes = ", ".join(f"{n} {k} lines not imported (informational)" for k, n in skipped.items())
    print(f"imported {len(entries)} runs: {done.created} new, {done.existing} already stored; "
          f"{done.alerts_levels} warn/fail verdicts" + (f"; {notes}" if notes else ""),
          file=sys.stderr)  # fmt: skip
    return 0


def _error(message: str) -> int:
    print(f"benchdash: error: {message}", file=sys.stderr)
    return 1
