"""`benchdash run`: queue a run of a system at a ref on its runner agents (README: CLI).

    benchdash run --system S --ref REF [--profile P] [--branch B] [--wait] [--fail-on LEVEL]

Talks to $BENCHDASH_URL with $BENCHDASH_TOKEN (a token with the trigger scope of the system).
Without --wait it prints the run's URL and exits 0 once the run is queued. With --wait it
follows the run's event stream (progress, state changes, the agent's log) until the run ends.
Exit codes as `benchdash upload`: 0 done with no verdict at or above --fail-on, 2 such a
verdict, 1 anything else (refused, unknown ref, the run failed, timed out or was cancelled,
the wait gave up).
"""

from __future__ import annotations

import argparse
import os
import sys

import httpx

from benchdash_runner import client, summary
from benchdash_runner.fleet import watch

COMMANDS = ("run",)
EXIT_OK, EXIT_ERROR, EXIT_REGRESSION = 0, 1, 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="benchdash run", description="Queue a run on the runner fleet (and wait for it)."
    )
    parser.add_argument("--system", required=True, help="system slug")
    parser.add_argument("--ref", required=True, help="branch, tag or commit SHA to run")
    parser.add_argument("--profile", help="a profile of the system (server default: quick)")
    parser.add_argument("--branch", help="chart the run on this branch (default: the ref's)")
    parser.add_argument(
        "--benchmark",
        action="append",
        dest="benchmarks",
        metavar="NAME",
        help="run only this scenario (repeatable; default: the whole profile)",
    )
    parser.add_argument("--wait", action="store_true", help="follow the run until it ends")
    parser.add_argument(
        "--fail-on",
        choices=sorted(summary.GATES),
        default="fail",
        help="with --wait: exit 2 when a verdict is at or above this level (default: fail)",
    )
    parser.add_argument(
        "--max-wait", type=float, default=6 * 3600, metavar="S", help="give up waiting after S s"
    )
    parser.add_argument("--quiet-log", action="store_true", help="do not print the run's log")
    parser.add_argument("--timeout", type=float, default=60.0, metavar="S", help="per request")
    return parser


def main(argv: list[str]) -> int:
    """Run `benchdash run ...` (argv starts with `run`)."""
    parser = _parser()
    try:
        ns = parser.parse_args(argv[1:])
    except SystemExit as e:  # argparse says 2 for usage errors: 2 is the regression code here
        return EXIT_OK if e.code == 0 else EXIT_ERROR
    base_url = os.environ.get("BENCHDASH_URL", "").strip().rstrip("/")
    token = os.environ.get("BENCHDASH_TOKEN", "").strip()
    missing = [n for n, v in (("BENCHDASH_URL", base_url), ("BENCHDASH_TOKEN", token)) if not v]
    if missing:
        return _error(f"{' and '.join(missing)} not set (export them, or set them as CI secrets)")
    body: dict[str, object] = {"system": ns.system, "ref": ns.ref}
    for key in ("profile", "branch", "benchmarks"):
        if getattr(ns, key):
            body[key] = getattr(ns, key)
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
    try:
        with httpx.Client(base_url=base_url, headers=headers, timeout=ns.timeout) as http:
            response = http.post("/api/v1/runs", json=body)
            if response.status_code != 201:
                return _error(client.describe_problem(response))
            run = response.json()
            url = f"{base_url}{run['url']}"
            print(f"queued run {run['id']} of {ns.system} at {ns.ref}: {url}", file=sys.stderr)
            for note in (run.get("warning"), run.get("ref_warning")):
                if note:
                    print(f"benchdash: note: {note}", file=sys.stderr)
            if not ns.wait:
                print(url)
                return EXIT_OK
            return _wait(http, ns, int(run["id"]), url)
    except httpx.HTTPError as e:
        return _error(f"cannot reach {base_url}: {type(e).__name__}: {e}")


def _wait(http: httpx.Client, ns: argparse.Namespace, run_id: int, url: str) -> int:
    try:
        status, message = watch.follow(
            http, run_id, max_wait_s=ns.max_wait, show_log=not ns.quiet_log
        )
    except httpx.HTTPStatusError as e:
        return _error(client.describe_problem(e.response))
    except watch.GaveUp as e:
        return _error(f"{e}; the run goes on: {url}")
    except KeyboardInterrupt:
        return _error(f"interrupted; the run goes on (cancel it at {url})")
    if status != "completed":
        why = f": {message}" if message else ""
        return _error(f"run {run_id} {status.replace('_', ' ')}{why} ({url})")
    detail = http.get(f"/api/v1/runs/{run_id}")
    if detail.status_code != 200:
        return _error(client.describe_problem(detail))
    verdicts = list(detail.json().get("measurements") or [])
    console = watch.console()
    if verdicts:
        summary.print_table(console, verdicts)
    console.print(f"run {run_id} completed: {summary.counts_line(verdicts)}: {url}")
    failing = summary.gate(verdicts, ns.fail_on)
    if failing:
        console.print(f"[bold red]{len(failing)} verdict(s) at or above --fail-on {ns.fail_on}[/]")
        return EXIT_REGRESSION
    return EXIT_OK


def _error(message: str) -> int:
    print(f"benchdash: error: {message}", file=sys.stderr)
    return EXIT_ERROR
