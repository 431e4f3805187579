"""The `benchdash` command: `upload` and `convert` here, other commands from plugins.

Exit codes: 0 success (no verdict at or above --fail-on), 2 a verdict at or above
--fail-on, 1 any error (bad input, bad usage, server refused, network gave up).

Any other subcommand is looked up in the `benchdash.commands` entry-point group (the server
package registers `token`, `demo`, `serve`, ... there). The entry point must be a callable
taking the whole argument list, command name first (`["token", "create", ...]`), and
returning an exit code (or None), so one `main(argv)` can serve several commands.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import fields
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, NoReturn

from rich.console import Console

from benchdash_runner import __version__, client, decision, document, forge, summary
from benchdash_runner.adapters import AdapterError
from benchdash_runner.fleet import command as fleet
from benchdash_runner.forge import table
from benchdash_runner.history import command as history
from benchdash_runner.prepare import (
    GAB_DIRECTIONS,
    InputError,
    RunOptions,
    build_document,
    known_formats,
)

BUILTIN = ("upload", "convert", *history.COMMANDS, *fleet.COMMANDS)
PLUGIN_GROUP = "benchdash.commands"
EXIT_OK, EXIT_ERROR, EXIT_REGRESSION = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse exits 2 on usage errors, which we reserve for regressions."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"{self.prog}: error: {message}\n")


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns (and, as a console script, exits with) the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in history.COMMANDS:  # history in and out: benchdash_runner.history
        return history.main(args)
    if args and args[0] in fleet.COMMANDS:  # runs on the runner fleet: benchdash_runner.fleet
        return fleet.main(args)
    if args and not args[0].startswith("-") and args[0] not in BUILTIN:
        return _delegate(args[0], args[1:])
    parser = _build_parser()
    ns = parser.parse_args(args)
    if ns.command is None:
        parser.print_help()
        return EXIT_ERROR
    code: int = ns.func(ns)
    return code


def _build_parser() -> _Parser:
    plugins = sorted(ep.name for ep in entry_points(group=PLUGIN_GROUP))
    parser = _Parser(
        prog="benchdash",
        description="Upload benchmark results to a benchdash server.",
        epilog=f"other commands: {', '.join(plugins)}" if plugins else None,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    up = sub.add_parser("upload", help="convert results and POST them to $BENCHDASH_URL")
    _add_common(up)
    up.add_argument(
        "--fail-on",
        choices=sorted(summary.GATES),
        default="fail",
        help="exit 2 when a verdict is at or above this level (default: fail)",
    )
    up.add_argument(
        "--summary",
        type=Path,
        metavar="FILE",
        help="also write the Markdown summary here ($GITHUB_STEP_SUMMARY is used when set)",
    )
    up.add_argument(
        "--retries", type=int, default=5, metavar="N", help="retries on network errors and 5xx"
    )
    up.add_argument(
        "--retry-delay", type=float, default=1.0, metavar="S", help="first backoff delay (s)"
    )
    up.add_argument(
        "--timeout", type=float, default=60.0, metavar="S", help="per-request timeout (s)"
    )
    forge.add_arguments(up)
    up.set_defaults(func=_upload)
    conv = sub.add_parser("convert", help="write the benchdash/v1 document without posting")
    _add_common(conv)
    conv.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT.json",
        help="where to write the document ('-' for stdout)",
    )
    conv.set_defaults(func=_convert)
    return parser


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--format", required=True, metavar="F", help=f"input format: {', '.join(known_formats())}"
    )
    p.add_argument("--system", help="system slug (for --format benchdash: taken from the file)")
    p.add_argument(
        "--direction", choices=sorted(GAB_DIRECTIONS), help="for --format gab: which way is better"
    )
    p.add_argument("--branch", help="default: from CI variables or git")
    p.add_argument("--base-branch", help="compare with it until own history (default PR target)")
    p.add_argument("--commit", help="default: from CI variables or git")
    p.add_argument("--testbed", help="machine name; default $BENCHDASH_TESTBED or a fingerprint")
    p.add_argument("--external-id", help="idempotency key; default derived from CI job or inputs")
    p.add_argument("--profile", help="run profile, e.g. quick")
    p.add_argument("--trigger", help="default $BENCHDASH_TRIGGER, else ci or manual")
    p.add_argument("--compiler", help="compiler name for the environment block")
    p.add_argument("--compiler-version", help="compiler version for the environment block")
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="tool output files or dirs")


def _options(ns: argparse.Namespace) -> RunOptions:
    names = [f.name for f in fields(RunOptions) if f.name != "env"]
    return RunOptions(**{name: getattr(ns, name) for name in names})


def _prepare(ns: argparse.Namespace) -> dict[str, Any] | None:
    try:
        return build_document(_options(ns))
    except (AdapterError, document.DocumentError, InputError) as e:
        _error(str(e))
        return None


def _convert(ns: argparse.Namespace) -> int:
    doc = _prepare(ns)
    if doc is None:
        return EXIT_ERROR
    text = json.dumps(doc, indent=2, allow_nan=False) + "\n"
    if str(ns.output) == "-":
        sys.stdout.write(text)
    else:
        Path(ns.output).write_text(text, encoding="utf-8")
        n = document.count_measurements(doc)
        print(f"wrote {ns.output}: {len(doc['results'])} benchmarks, {n} metrics", file=sys.stderr)
    return EXIT_OK


def _upload(ns: argparse.Namespace) -> int:
    base_url = os.environ.get("BENCHDASH_URL", "").strip()
    token = os.environ.get("BENCHDASH_TOKEN", "").strip()
    missing = [n for n, v in (("BENCHDASH_URL", base_url), ("BENCHDASH_TOKEN", token)) if not v]
    if missing and (why := forge.fork_skip(ns, ns.system)):
        print(f"benchdash: upload skipped: {why}", file=sys.stderr)
        return EXIT_OK
    if missing:
        _error(f"{' and '.join(missing)} not set (export them, or set them as CI secrets)")
        return EXIT_ERROR
    doc = _prepare(ns)
    if doc is None:
        return EXIT_ERROR
    if not doc["run"].get("branch"):
        _error("cannot tell the branch (detached HEAD, no CI variables): pass --branch")
        return EXIT_ERROR
    n = document.count_measurements(doc)
    print(
        f"uploading {doc['system']}: {len(doc['results'])} benchmarks, {n} metrics, "
        f"external id {doc['run']['external_id']}",
        file=sys.stderr,
    )
    try:
        response, attempts = client.post_document(
            base_url=base_url,
            token=token,
            body=document.dumps(doc),
            retries=ns.retries,
            retry_delay=ns.retry_delay,
            timeout=ns.timeout,
        )
    except client.UploadError as e:
        _error(str(e))
        return EXIT_ERROR
    decided = decision.decide(response, ns.fail_on)  # the exit code's and the check's
    code = _report(ns, response, base_url, doc["system"], decided, retried=attempts > 1)
    if ns.report:  # never changes the exit code: a forge error is printed, not raised
        forge.report(
            ns,
            response=response,
            decided=decided,
            base_url=base_url,
            token=token,
            system=doc["system"],
        )
    return code


def _report(
    ns: argparse.Namespace,
    response: dict[str, Any],
    base_url: str,
    system: str,
    decided: decision.Decision,
    *,
    retried: bool,
) -> int:
    run = response.get("run") or {}
    verdicts = list(response.get("verdicts") or [])
    # CI logs are not terminals but are wide: don't squeeze the table into 80 columns.
    console = Console(width=None if sys.stdout.isatty() else 160)
    if response.get("created") is False and retried:
        console.print("stored by an earlier attempt of this upload (the server saw it first)")
    elif response.get("created") is False:
        console.print(
            f"already uploaded as {run.get('external_id')!r}: nothing new stored; showing the"
            " stored run's verdicts (pass --external-id to upload anew)"
        )
    url = f"{base_url.rstrip('/')}{run['url']}" if run.get("url") else "?"
    console.print(f"run {run.get('id', '?')} ({run.get('status', '?')}): {url}", highlight=False)
    if verdicts:
        summary.print_table(console, verdicts)
    console.print(summary.counts_line(verdicts))
    icon = {decision.FAILURE: "❌", decision.NEUTRAL: "⚠️"}.get(decided.conclusion, "✅")
    text = summary.markdown(
        response=response,
        base_url=base_url,
        fail_on=ns.fail_on,
        system=system,
        headline=f"{icon} {decided.title}",
        extra=table.pr_lines(response.get("pr") or None, base_url.rstrip("/")),
    )
    try:
        summary.write(text, ns.summary)
    except OSError as e:
        _error(f"cannot write summary {e.filename}: {e.strerror}")
        return EXIT_ERROR
    pr = response.get("pr") or {}
    if pr.get("base_runs"):
        runs = ", ".join(str(r.get("run_id")) for r in pr["base_runs"])
        console.print(f"compared with {pr.get('base_branch')}: runs {runs}", highlight=False)
    for line in decided.failing + decided.neutral:
        console.print(f"  {line}", highlight=False, markup=False)
    if decided.fails:
        console.print(f"[bold red]{decided.title}[/]", highlight=False)
        return EXIT_REGRESSION
    console.print(f"{decided.conclusion}: {decided.title}", highlight=False, markup=False)
    return EXIT_OK


def _delegate(name: str, rest: list[str]) -> int:
    found = [ep for ep in entry_points(group=PLUGIN_GROUP) if ep.name == name]
    if not found:
        known = sorted({*BUILTIN, *(ep.name for ep in entry_points(group=PLUGIN_GROUP))})
        _error(f"unknown command {name!r}; known commands: {', '.join(known)}")
        return EXIT_ERROR
    command = found[0].load()
    result = command([name, *rest])
    return result if isinstance(result, int) else EXIT_OK


def _error(message: str) -> None:
    print(f"benchdash: error: {message}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
