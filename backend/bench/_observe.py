"""What reads.py watches while it reads: pg_stat_activity, the servers' garbage collections."""

from __future__ import annotations

import re
import threading
from collections import Counter
from pathlib import Path

import psycopg


def sample_activity(url: str, skip: list[int], stop: threading.Event, seen: Counter[str]) -> None:
    """Every 20 ms: what each active client backend (but ours) does or waits on."""
    with psycopg.connect(url, autocommit=True) as conn:
        skip = [*skip, conn.info.backend_pid]
        while not stop.wait(0.02):
            rows = conn.execute(
                "SELECT coalesce(wait_event_type || ':' || wait_event, 'running') "
                "FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' "
                "AND backend_type = 'client backend' AND NOT pid = ANY(%s)",
                (skip,),
            ).fetchall()
            seen["samples"] += 1
            seen["samples with an API statement active"] += bool(rows)
            seen.update(r[0] for r in rows)


def quantiles(ms: list[float]) -> tuple[float, float, float, float]:
    """p50, p90, p99 and max (nearest rank)."""
    s = sorted(ms)
    q = [s[min(len(s) - 1, int(len(s) * p))] for p in (0.5, 0.9, 0.99)]
    return q[0], q[1], q[2], s[-1]


def gc_pauses(trace: Path, log: Path) -> list[tuple[float, float, int]]:
    """(start, end, generation) of each collection traced in the server's workers, monotonic
    seconds (the supervisor named in `log` serves no request: its collections are left out)."""
    if not trace.exists():
        return []
    parent = re.findall(r"Started parent process \[(\d+)\]", log.read_text())
    out = []
    for line in trace.read_text().splitlines():
        pid, start, ms, gen = line.split()
        if pid not in parent:
            out.append((float(start), float(start) + float(ms) / 1000, int(gen)))
    return out


def gc_report(spans: list[tuple[float, float]], trace: Path, log: Path, since: float) -> str:
    """Full collections during the reads, and how many slow requests overlapped one."""
    full = [(a, b) for a, b, g in gc_pauses(trace, log) if g == 2 and a >= since]
    p50 = quantiles([1000 * (b - a) for a, b in spans])[0]
    slow = [(a, b) for a, b in spans if 1000 * (b - a) > 3 * p50]
    hit = sum(any(ga < b and gb > a for ga, gb in full) for a, b in slow)
    pauses = sorted(1000 * (b - a) for a, b in full)
    worst = f", median {pauses[len(pauses) // 2]:.0f} ms, max {pauses[-1]:.0f} ms" if full else ""
    return f"{len(full)} full collections{worst}; {hit} of {len(slow)} slow requests overlapped one"


def cpu_seconds() -> Counter[str]:
    """CPU time (user + system) used so far by the API's processes ("api": `benchdash-server
    serve` and the workers it spawned) and by PostgreSQL's ("postgres"); sample before and
    after a load and subtract."""
    import psutil

    used: Counter[str] = Counter()
    for proc in psutil.process_iter(["cmdline", "cpu_times", "name"]):
        try:
            cmd = " ".join(proc.info["cmdline"] or [])
            parent = proc.parent()
            above = " ".join(parent.cmdline()) if parent else ""
        except psutil.Error:
            continue
        times = proc.info["cpu_times"]
        if times is None:
            continue
        if proc.info["name"] == "postgres" or cmd.startswith("postgres"):
            used["postgres"] += times.user + times.system
        elif "benchdash-server serve" in cmd or (
            "spawn_main" in cmd and "benchdash-server serve" in above
        ):
            used["api"] += times.user + times.system
    return used
