"""Probes of a hostile tester against the real API process (issue 23): concurrent completions
of one queued run, and a burst of parallel wrong sign-ins."""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import psutil

from tests.integration.conftest import Api

MANIFEST: dict[str, Any] = {
    "system": "hostile",
    "name": "hostile",
    "language": "Go",
    "description": "probe target",
    "driver": {"command": ["runners/selftest/driver.py"], "adapter": "benchdash"},
    "profiles": {"quick": {"time_limit_s": 300, "repetitions": 3, "scenarios": ["a"]}},
    "metrics": [{"name": "qps", "unit": "req/s", "direction": "higher_is_better"}],
}


def _bearer(plain: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {plain}"}


def test_ten_concurrent_completions_of_one_queued_run_all_answer_with_it(api: Api) -> None:
    agent = _bearer(api.cli("token", "create", "--system", "hostile", "--scope", "agent"))
    with httpx.Client(base_url=api.url, timeout=60) as http:
        r = http.put("/api/v1/systems/hostile/manifest", json=MANIFEST, headers=agent)
        assert r.status_code == 200, r.text
        r = http.post("/api/v1/runs", json={"system": "hostile"}, headers=_bearer(api.token))
        assert r.status_code == 201, r.text
        run_id = r.json()["id"]
    doc = {
        "schema": "benchdash/v1",
        "system": "hostile",
        "run": {"id": run_id, "external_id": f"queued-run-{run_id}", "commit": "abc1234"},
        "results": [
            {
                "benchmark": f"new-series-{b}",
                "metrics": [
                    {
                        "name": "qps",
                        "unit": "req/s",
                        "direction": "higher_is_better",
                        "value": 1000.0 + b,
                    }
                ],
            }
            for b in range(20)
        ],
    }

    def complete(_: int) -> tuple[int, int | None]:
        with httpx.Client(base_url=api.url, headers=agent, timeout=60) as http:
            r = http.post("/api/v1/results", json=doc)
            assert r.status_code in (200, 201), r.text
            return r.status_code, r.json()["run"]["id"]

    with ThreadPoolExecutor(10) as pool:
        answers = list(pool.map(complete, range(10)))
    assert Counter(code for code, _ in answers) == Counter({201: 1, 200: 9}), answers
    assert {rid for _, rid in answers} == {run_id}
    detail = httpx.get(f"{api.url}/api/v1/runs/{run_id}", timeout=30).json()
    assert detail["status"] == "completed" and len(detail["measurements"]) == 20


def _api_processes(api: Api) -> list[psutil.Process]:
    port = int(api.url.rsplit(":", 1)[1])
    found = []
    for p in psutil.process_iter(["cmdline"]):
        if "serve" in (p.info["cmdline"] or []) and str(port) in (p.info["cmdline"] or []):
            found.append(p)
            found.extend(p.children(recursive=True))
    return found


def _peak_rss_mb(procs: list[psutil.Process]) -> float:
    """Sum of the processes' peak resident sizes (VmHWM), in MiB."""
    total = 0
    for p in procs:
        for line in Path(f"/proc/{p.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                total += int(line.split()[1])
    return total / 1024


def test_eighty_parallel_wrong_sign_ins_are_throttled_and_bounded(api: Api) -> None:
    procs = _api_processes(api)
    assert procs, "the API's processes were not found"
    before = _peak_rss_mb(procs)

    def guess(i: int) -> tuple[int, str | None]:
        with httpx.Client(base_url=api.url, timeout=60) as http:
            r = http.post("/api/v1/auth/login", json={"username": "admin", "password": f"g{i}"})
            return r.status_code, r.headers.get("retry-after")

    with ThreadPoolExecutor(80) as pool:
        answers = list(pool.map(guess, range(80)))
    codes = Counter(code for code, _ in answers)
    grew = _peak_rss_mb(procs) - before
    print(f"80 parallel wrong sign-ins: {dict(codes)}; API peak RSS grew {grew:.0f} MiB")
    # 5 free attempts, then one more each time the doubling wait (1 s, 2 s, 4 s) has passed
    # while the burst is still arriving.
    assert 5 <= codes[401] <= 8 and codes[429] == 80 - codes[401], codes
    assert all(ra and int(ra) >= 1 for code, ra in answers if code == 429)
    assert grew < 400, f"password hashing took {grew:.0f} MiB more at its peak"
