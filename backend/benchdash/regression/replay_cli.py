"""The `replay` subcommand's arguments; the work is imported only when it runs (fast startup)."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_parser(sub: Any) -> None:
    """Register `replay` on the CLI's subparsers."""
    r = sub.add_parser(
        "replay",
        help="replay one series (JSON on stdin) through the regression detector, CI-fed, "
        "and print the alerts it would open",
    )
    r.add_argument("--warn", type=float, default=5.0, help="configured warn threshold, %%")
    r.add_argument("--fail", type=float, default=10.0, help="configured fail threshold, %%")
    r.add_argument(
        "--jsonl",
        action="store_true",
        help='many series, one per line; prints {"id", "alerts"} per line, in order',
    )
    r.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Read the series on stdin, print `[{"index", "level", "alarm_index"}]` on stdout."""
    from benchdash.regression import replay
    from benchdash.regression.engine import Thresholds

    if not 0 < args.warn <= args.fail:
        print("error: thresholds need 0 < --warn <= --fail", file=sys.stderr)
        return 2
    try:
        go = replay.run_lines if args.jsonl else replay.run
        return go(sys.stdin, sys.stdout, Thresholds(args.warn, args.fail))
    except replay.ReplayError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
