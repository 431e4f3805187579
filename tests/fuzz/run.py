"""`make test-fuzz`: schemathesis over the live OpenAPI spec of a real API process, then the
routes the spec does not describe (the SPA fallback, the UI's files: tests/fuzz/spa.py).

Starts the API on a scratch database with a little demo data, then runs schemathesis with
every built-in check (their default; schemathesis.toml says where a 413 or a 422 is a correct
answer) and every phase, the stateful one following the spec's links (create a run, then read
and cancel it; upload, then read the run), twice: without credentials and with an admin token.

Each run draws a random seed and prints it; `--seed N` (or BENCHDASH_FUZZ_SEED=N) replays it.
Without `--seconds`, each operation gets `--examples` cases (a quick pass). With `--seconds S`
(FUZZ_SECONDS=S), the search goes on until S seconds are spent: schemathesis' `--max-time`
for each pass, hypothesis rounds for the SPA phase (a time-bounded run with two workers
replays only roughly from its seed; add `--workers 1` for a closer replay).

Passes only when no response is a 5xx, every 4xx/5xx is problem+json (the `problem_json`
check in hooks.py), schemathesis' own checks hold, and the API's log shows no 5xx or traceback.

    .venv/bin/python tests/fuzz/run.py [--seed N] [--examples 25] [--seconds 300] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "backend" / "bench"))
sys.path.insert(0, str(HERE))
import spa  # noqa: E402
from _server import api, cli, embedded_stopped_after, scratch_database  # noqa: E402

BIN = Path(sys.executable).parent
# uvicorn's access log ("GET /x HTTP/1.1" 500 ...), the app's own "500 GET /x [id]" / "503 ..."
# lines, and any traceback.
SERVER_ERROR = re.compile(
    r'"\s*[A-Z]+ [^"]*" 5\d\d\b|\b5\d\d (GET|HEAD|POST|PUT|PATCH|DELETE) /|Traceback'
)


def _outcome(junit: Path) -> tuple[int, int]:
    """(failures, tool errors) in a schemathesis JUnit report."""
    root = ET.parse(junit).getroot()
    return len(root.findall(".//failure")), len(root.findall(".//error"))


def _run_pass(cmd: list[str], errors_log: Path) -> int:
    """Run one schemathesis pass; a pass that only hit schemathesis' own runtime errors (not a
    finding about the API) is run once more, and reported rather than failed if it repeats."""
    env = {
        **os.environ,
        "SCHEMATHESIS_HOOKS": "hooks",
        "PYTHONPATH": str(HERE),
        "BENCHDASH_FUZZ_5XX_LOG": str(errors_log),
    }
    for attempt in (1, 2):
        with tempfile.TemporaryDirectory() as tmp:
            junit = Path(tmp) / "junit.xml"
            code = subprocess.run(
                [*cmd, "--report", "junit", "--report-junit-path", str(junit)],
                cwd=ROOT,
                env=env,
                check=False,
            ).returncode
            if code == 0:
                return 0
            failures, errors = _outcome(junit) if junit.exists() else (1, 0)
        if failures:
            return 1
        print(f"schemathesis hit {errors} runtime error(s) of its own (attempt {attempt})")
    print("warning: schemathesis' own runtime errors repeated; no API finding in this pass")
    return 0


def _schemathesis(base: str, args: argparse.Namespace, extra: list[str], seconds: int) -> list[str]:
    cmd = [
        str(BIN / "schemathesis"),
        "--config-file",
        str(HERE / "schemathesis.toml"),
        "run",
        f"{base}/api/openapi.json",
        "--checks",
        "all",
        "-n",
        str(args.examples),
        "--seed",
        str(args.seed),
        "--generation-database",
        "none",
        "--no-color",
        "--request-timeout",
        "30",
        "--workers",
        str(args.workers),
        *extra,
    ]
    return [*cmd, "--max-time", str(seconds)] if seconds > 0 else cmd


def _log_errors(log: Path) -> list[str]:
    """Lines of the API's log that tell of a 5xx or a traceback."""
    text = log.read_text(errors="replace") if log.exists() else ""
    return [line for line in text.splitlines() if SERVER_ERROR.search(line)]


def _args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    env_seed = os.environ.get("BENCHDASH_FUZZ_SEED") or os.environ.get("FUZZ_SEED")
    p.add_argument("--seed", type=int, default=int(env_seed) if env_seed else None)
    p.add_argument("--examples", type=int, default=25, help="test cases per operation (a round)")
    p.add_argument(
        "--seconds",
        type=int,
        default=int(os.environ.get("FUZZ_SECONDS") or 0),
        help="time budget of the whole search (0: one bounded pass)",
    )
    p.add_argument("--workers", type=int, default=2, help="schemathesis workers")
    args = p.parse_args()
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(2**31)
    return args


def main() -> int:
    """Run the passes; exit non-zero when any finds a failure or the log shows a 5xx."""
    args = _args()
    how = f"{args.seconds} s" if args.seconds > 0 else f"{args.examples} examples per operation"
    print(f"fuzz: seed {args.seed}, {how}", flush=True)
    again = f" FUZZ_SECONDS={args.seconds}" if args.seconds > 0 else ""
    print(f"fuzz: reproduce with make test-fuzz FUZZ_SEED={args.seed}{again}", flush=True)
    # Time shares: the admin token reaches every operation, anonymous calls mostly refusals.
    shares = {"spa": 0.1, "anonymous": 0.3, "admin token": 0.6}
    budget = {
        k: max(20, int(v * args.seconds)) if args.seconds > 0 else 0 for k, v in shares.items()
    }
    started = time.monotonic()
    # a claim's long poll holds its answer on purpose; held 1 s at most, it is not a slow answer
    os.environ["BENCHDASH_CLAIM_MAX_WAIT_S"] = "1"
    db = scratch_database("benchdash_fuzz")
    cli(db, "demo", "--runs", "6")
    token = cli(db, "token", "create", "--scope", "admin", "--name", "fuzz")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        log, errors_log = Path(tmp) / "api.log", Path(tmp) / "5xx.log"
        with api(db, workers=2, log=log) as base:
            bearer = ["-H", f"Authorization: Bearer {token}"]
            for label, extra in (("anonymous", []), ("admin token", bearer)):
                print(f"== schemathesis, {label}", flush=True)
                failed |= _run_pass(_schemathesis(base, args, extra, budget[label]), errors_log)
            print("== SPA fallback and static routes (hypothesis)", flush=True)
            examples = 300 if args.seconds <= 0 else 200
            failed |= bool(spa.run(base, args.seed, examples, budget["spa"]))
        answered = errors_log.read_text().splitlines() if errors_log.exists() else []
        logged = _log_errors(log)
        print(f"fuzz: 5xx answers seen by the checks: {len(answered)}")
        print(f"fuzz: 5xx or tracebacks in the API log: {len(logged)}")
        for line in logged[:20]:
            print(f"  {line}")
        failed |= bool(answered or logged)
    minutes = (time.monotonic() - started) / 60
    verdict = "FAILED" if failed else "passed"
    print(f"fuzz: {verdict} in {minutes:.1f} min (seed {args.seed})")
    return 1 if failed else 0


if __name__ == "__main__":
    with embedded_stopped_after():  # the embedded PostgreSQL, if this run started it
        code = main()
    sys.exit(code)
