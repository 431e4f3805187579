"""The lists every page waits on, at 100 systems: GET /api/v1/systems (the overview, compare,
admin and notifications pages) and GET /api/v1/compare of two runs of a wide system, beside the
same run's reference, an empty request (GET /healthz) on the same keep-alive connection.

    .venv/bin/python backend/bench/lists.py [--systems 100] [--runs 12] [--wide 10]
                                           [--repeat 30]

Each system gets `--runs` CI runs of the realistic 20-metric job (backend/bench/_documents.py)
uploaded through the API by 4 clients; one more system ("wide") has `--wide` copies of the job
per run (20 × wide series) and is the one compared. Reports p50/p90 of each read, its ratio to
the empty request and whether the p50 meets issue 40's goal (≤ 50 ms).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import httpx
from _documents import document, user_job
from _server import CLI, api, cli, embedded_stopped_after, scratch_database
from series import timed

GOAL_MS = 50.0
NAME = "benchdash_bench_lists"


def _wide_job(copies: int) -> tuple[Any, ...]:
    return tuple(replace(b, name=f"{b.name}_{c}") for c in range(copies) for b in user_job())


def _load(base: str, token: str, systems: int, runs: int, wide: int) -> int:
    """Upload every system's runs (4 clients); the number of uploads answered 201."""
    jobs: list[tuple[str, tuple[Any, ...], int]] = [
        (f"sys{s:03d}", user_job(), i) for s in range(systems) for i in range(runs)
    ]
    jobs += [("wide", _wide_job(wide), i) for i in range(runs)]
    headers = {"Authorization": f"Bearer {token}"}
    done = [0]

    def send(http: httpx.Client, job: tuple[str, tuple[Any, ...], int]) -> int:
        system, benches, i = job
        doc = document(benches, system, i, random.Random(f"{system}-{i}"))
        doc["system"] = system
        status = http.post("/api/v1/results", json=doc, headers=headers).status_code
        done[0] += 1
        if done[0] % max(1, len(jobs) // 10) == 0:
            print(f"   loaded {100 * done[0] // len(jobs)} % ({done[0]}/{len(jobs)})", flush=True)
        return status

    with httpx.Client(base_url=base, timeout=60) as http, ThreadPoolExecutor(4) as pool:
        statuses = list(pool.map(lambda j: send(http, j), jobs))
    bad = [s for s in statuses if s != 201]
    if bad:
        raise SystemExit(f"{len(bad)} uploads were not stored: statuses {sorted(set(bad))}")
    return len(statuses)


def _line(name: str, times: list[float], ref: float) -> str:
    times = sorted(times)
    p50, p90 = statistics.median(times), times[int(0.9 * (len(times) - 1))]
    verdict = "meets" if p50 <= GOAL_MS else "MISSES"
    return (
        f"{name:<34} p50 {p50:7.1f} ms  p90 {p90:7.1f} ms  {p50 / ref:6.1f}× the empty request "
        f"({verdict} the {GOAL_MS:.0f} ms goal)"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--systems", type=int, default=100)
    p.add_argument("--runs", type=int, default=12)
    p.add_argument("--wide", type=int, default=10, help="copies of the 20-metric job")
    p.add_argument("--repeat", type=int, default=30)
    args = p.parse_args()
    print(
        f"machine: {platform.machine()} {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    with embedded_stopped_after():
        db = scratch_database(NAME)
        token = cli(db, "token", "create", "--scope", "upload")
        with api(db) as base, httpx.Client(base_url=base, timeout=60) as http:
            uploads = _load(base, token, args.systems, args.runs, args.wide)
            systems = http.get("/api/v1/systems").raise_for_status().json()
            runs = http.get("/api/v1/runs", params={"system": "wide", "limit": 2}).json()["items"]
            head, base_run = runs[0]["id"], runs[1]["id"]
            compare = {"base": base_run, "head": head}
            rows = http.get("/api/v1/compare", params=compare).raise_for_status().json()
            print(
                f"{uploads} uploads: {len(systems)} systems, compare of runs {base_run}..{head} "
                f"({len(rows.get('rows', rows.get('series', [])))} rows)",
                flush=True,
            )
            empty, lists, compared = [], [], []
            for _ in range(3):  # interleaved, so a busy moment falls on all three alike
                empty += timed(lambda: http.get("/healthz").raise_for_status(), args.repeat)
                lists += timed(lambda: http.get("/api/v1/systems").raise_for_status(), args.repeat)
                compared += timed(
                    lambda: http.get("/api/v1/compare", params=compare).raise_for_status(),
                    args.repeat,
                )
        ref = statistics.median(empty)
        print(f"{'GET /healthz (reference)':<34} p50 {ref:7.2f} ms", flush=True)
        print(_line(f"GET /api/v1/systems ({len(systems)})", lists, ref), flush=True)
        print(_line("GET /api/v1/compare (wide)", compared, ref), flush=True)
        subprocess.run([CLI, "scratch-db", NAME, "--drop"], check=True, capture_output=True)


if __name__ == "__main__":
    main()
