"""`python -m tests.compose` (what `make test-compose` runs); `--help` for the options."""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import FrameType

from tests.compose.engine import ROOT, Compose, Unavailable, engine, install_missing, launcher
from tests.compose.run import PROJECT, TIMES, base_images, free_port, scenario, write_env
from tests.compose.scale import scale_scenario


def _interrupt(signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="make test-compose", description=__doc__)
    p.add_argument("--systems", nargs="*", help="only these runner services (default: all)")
    p.add_argument("--run-timeout", type=float, default=2400, help="seconds for all quick runs")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--no-scale", action="store_true", help="not the scale profile's phases")
    which.add_argument(
        "--only-scale",
        action="store_true",
        help="only the scale profile's phases (docs/scaling.md)",
    )
    p.add_argument(
        "--skip-if-unavailable",
        action="store_true",
        help="exit 0 with a SKIPPED line when Docker cannot be installed or started here",
    )
    return p


def _report(outcome: str) -> None:
    total = sum(t for _, t in TIMES)
    print(f"\ntest-compose: {outcome}; phase times (s):", flush=True)
    for name, seconds in TIMES:
        print(f"  {seconds:7.1f}  {name}", flush=True)
    print(f"  {total:7.1f}  total", flush=True)


def _teardown(compose: Compose) -> None:
    """Keep the services' logs (if any are left), then remove containers, networks, volume."""
    try:
        if compose.out("ps", "-q").strip():
            print(f"test-compose: services' logs in {compose.save_logs()}", flush=True)
    except RuntimeError as exc:  # still take it down
        print(f"test-compose: {exc}", flush=True)
    subprocess.run(
        [*compose.base, "down", "-v", "--remove-orphans"],
        cwd=ROOT,
        env=compose.env,
        capture_output=True,
        check=False,
    )
    print("test-compose: stack removed (down -v)", flush=True)


def main(argv: list[str] | None = None) -> int:
    """Run every phase; 0 when all passed (or skipped on request), 1 on failure."""
    args = _parser().parse_args(argv)
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started with it ignored
    logs = ROOT / ".data" / "test-compose"
    logs.mkdir(parents=True, exist_ok=True)
    up = launcher()
    t0 = time.monotonic()
    try:
        install_missing(compose_found=up.compose_command() is not None)
        with engine(logs) as started, tempfile.TemporaryDirectory() as tmp:
            TIMES.append(
                ("docker engine" + (" (started)" if started else ""), time.monotonic() - t0)
            )
            command = up.compose_command()
            if command is None:
                raise Unavailable("no Compose: apt-get install docker-compose (or the v2 plugin)")
            print(f"test-compose: compose = {' '.join(command)}; logs in {logs}", flush=True)
            env_file = Path(tmp) / "compose.env"
            env = write_env(env_file, free_port())
            compose = Compose(command, PROJECT, env_file, logs)
            compose.out("down", "-v", "--remove-orphans")  # leftovers of a killed earlier run
            try:
                if args.only_scale:
                    base_images()
                else:
                    scenario(compose, env, args)
                if not args.no_scale:  # after the main scenario's down -v, from its images
                    scale_scenario(compose, env)
            finally:
                previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # finish cleaning up
                try:
                    _teardown(compose)
                finally:
                    signal.signal(signal.SIGINT, previous)
    except Unavailable as exc:
        if args.skip_if_unavailable:
            print(f"test-compose: SKIPPED: {exc}", flush=True)
            return 0
        print(f"test-compose: cannot run: {exc}", file=sys.stderr, flush=True)
        return 2
    except KeyboardInterrupt:
        _report("INTERRUPTED")
        return 130
    except (AssertionError, RuntimeError, subprocess.CalledProcessError) as exc:
        print(f"\ntest-compose: FAILED: {exc}", file=sys.stderr, flush=True)
        _report("FAILED")
        return 1
    _report("PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
