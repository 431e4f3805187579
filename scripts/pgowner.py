#!/usr/bin/env python3
"""Who holds the embedded PostgreSQL: a marker written by whoever started (or adopted) it.

    scripts/pgowner.py hold --owner PID --by "make test"     start it or adopt an orphan
    scripts/pgowner.py release --owner PID                   stop it if PID holds it

The marker (`<data dir>/pg.owner`) names the holding process (pid and start time, so a reused
pid is not mistaken for it) and the postmaster it held (pid and start time). `release` stops
the server only when the marker names the caller and the running postmaster is the one it
held or one started since it took hold (a suite may restart it); a server another live
process holds, or one nobody marked (started by hand), is left running. A `postmaster.pid`
alone decides nothing: it may be stale or name a process that is not a postmaster.
Standard library only; the server is started and stopped by `benchdash-server`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / ".venv" / "bin" / "benchdash-server"


def data_dir() -> Path:
    return Path(os.environ.get("BENCHDASH_DATA_DIR") or ROOT / ".data").resolve()


def started(pid: int) -> int | None:
    """The start time of a live process (clock ticks since boot), None when there is none."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[19])


def postmaster(pgdata: Path) -> tuple[int, int] | None:
    """(pid, start time) of the postmaster running on `pgdata`, None when none runs there."""
    try:
        lines = (pgdata / "postmaster.pid").read_text().splitlines()
        pid = int(lines[0])
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except (OSError, ValueError, IndexError):
        return None
    if not cmd[0].endswith(b"postgres"):
        return None  # stale: the pid now belongs to another program
    try:
        if Path(f"/proc/{pid}/cwd").resolve() != pgdata.resolve():
            return None
    except OSError:
        pass  # another user's process: the command line is all we can tell
    tick = started(pid)
    return None if tick is None else (pid, tick)


def read_marker(path: Path) -> dict[str, int | str] | None:
    try:
        marker = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return marker if isinstance(marker, dict) else None


def holder_alive(marker: dict[str, int | str]) -> bool:
    return started(int(marker["owner"])) == int(marker["owner_start"])


def hold(owner: int, by: str) -> str:
    """Start the server for `owner`, or adopt one whose holder is gone; say what happened."""
    pgdata, path = data_dir() / "pg", data_dir() / "pg.owner"
    running, marker = postmaster(pgdata), read_marker(path)
    if running is not None:
        held = (
            marker is not None
            and (int(marker["postmaster"]), int(marker["postmaster_start"])) == running
        )
        if not held:
            return f"PostgreSQL {running[0]} runs unmarked (started by hand): left to its owner"
        assert marker is not None
        if holder_alive(marker):
            return f"PostgreSQL {running[0]} is held by {marker['by']} ({marker['owner']})"
        note = f"adopted PostgreSQL {running[0]} from {marker['by']}, which is gone"
    else:
        env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
        subprocess.run([str(SERVER), "db-url"], env=env, check=True, stdout=subprocess.DEVNULL)
        running = postmaster(pgdata)
        if running is None:
            raise SystemExit(f"pgowner: no postmaster runs on {pgdata} after starting it")
        note = f"started PostgreSQL {running[0]}"
    mark = {"owner": owner, "owner_start": started(owner) or 0, "by": by}
    mark |= {"postmaster": running[0], "postmaster_start": running[1]}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(mark) + "\n")
    return f"{note} for {by}"


def release(owner: int) -> str:
    """Stop the server if `owner` holds it; say what happened."""
    pgdata, path = data_dir() / "pg", data_dir() / "pg.owner"
    marker = read_marker(path)
    if marker is None or int(marker["owner"]) != owner or not holder_alive(marker):
        return "PostgreSQL not held by this run: left as it is"
    running = postmaster(pgdata)
    if running is not None:
        ours = running == (int(marker["postmaster"]), int(marker["postmaster_start"]))
        if not ours and running[1] < int(marker["owner_start"]):
            return f"PostgreSQL {running[0]} predates this run: left running"
        env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
        subprocess.run([str(SERVER), "db-stop"], env=env, check=True, stdout=subprocess.DEVNULL)
    path.unlink(missing_ok=True)
    return "PostgreSQL stopped" if running else "PostgreSQL had stopped already"


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("verb", choices=("hold", "release"))
    p.add_argument("--owner", type=int, required=True, help="pid of the holding process")
    p.add_argument("--by", default="make test", help="the holder's name, for messages")
    args = p.parse_args()
    if os.environ.get("DATABASE_URL"):
        return 0  # not the embedded server: not ours to start or stop
    said = hold(args.owner, args.by) if args.verb == "hold" else release(args.owner)
    print(f"pgowner: {said}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
