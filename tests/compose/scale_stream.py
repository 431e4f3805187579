"""The scale scenario's tools: an upload stream that retries what was not acknowledged, which
replica nginx sent each request to (its access log), and SQL on the stack's PostgreSQL servers."""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.error
import urllib.request
from collections import Counter

from tests.compose.engine import Compose

BENCH = "scale_upload"
BRANCH = "scale"
METRIC = "requests"  # declared by cachex's manifest with this unit and direction
RETRY = {502, 503, 504}  # nginx found no replica, or a replica was not ready: send it again


def document(external_id: str, value: float) -> dict[str, object]:
    """One CI upload of cachex: one benchmark, one metric with samples."""
    return {
        "schema": "benchdash/v1",
        "system": "cachex",
        "run": {"external_id": external_id, "commit": "5ca1e00", "branch": BRANCH},
        "environment": {"os": "Linux"},
        "results": [
            {
                "benchmark": BENCH,
                "metrics": [
                    {
                        "name": METRIC,
                        "unit": "requests",
                        "direction": "higher_is_better",
                        "samples": [value, value + 1, value - 1],
                    }
                ],
            }
        ],
    }


def upload(base: str, token: str, external_id: str) -> tuple[int, str | None]:
    """POST one document; its status and the set-cookie it came with (the fresh-read cookie)."""
    status, _, cookie = _post(base, token, external_id)
    return status, cookie


def _post(base: str, token: str, external_id: str) -> tuple[int, dict[str, object], str | None]:
    body = json.dumps(document(external_id, 1000.0 + len(external_id))).encode()
    headers = {"content-type": "application/json", "authorization": f"Bearer {token}"}
    req = urllib.request.Request(f"{base}/api/v1/results", data=body, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read()), r.headers.get("set-cookie")
    except urllib.error.HTTPError as exc:
        return exc.code, {"detail": exc.read()[:300].decode(errors="replace")}, None


class Uploads:
    """`total` uploads by `clients` threads, each pausing `pause` s after an acknowledged one
    (CI jobs finishing, not a load test), each sent until acknowledged (201 new, 200 already
    stored); connection errors and 502/503/504 are retried with the same external id, any other
    answer is a failure."""

    def __init__(self, base: str, token: str, total: int, clients: int, pause: float) -> None:
        self.base, self.token, self.pause = base, token, pause
        self.pending = [f"scale-{i:04d}" for i in range(total)]
        self.acknowledged: dict[str, int] = {}  # external id -> run id
        self.answers: Counter[str] = Counter()
        self.failures: list[str] = []
        self.lock = threading.Lock()
        self.t0 = self.seconds = 0.0
        self.threads = [threading.Thread(target=self._client, daemon=True) for _ in range(clients)]

    def start(self) -> None:
        self.t0 = time.monotonic()
        for t in self.threads:
            t.start()

    def _client(self) -> None:
        while True:
            with self.lock:
                if not self.pending or len(self.failures) > 10:
                    return
                external_id = self.pending.pop(0)
            for _ in range(20):
                try:
                    status, body, _ = _post(self.base, self.token, external_id)
                except OSError as exc:  # reset, refused, timed out
                    self._count(type(exc).__name__)
                    time.sleep(0.2)
                    continue
                self._count(str(status))
                if status in (200, 201):
                    with self.lock:
                        run = body["run"]
                        assert isinstance(run, dict)
                        self.acknowledged[external_id] = int(run["id"])
                    time.sleep(self.pause)
                    break
                if status not in RETRY:
                    self._fail(f"{external_id}: {status} {body}")
                    break
                time.sleep(0.2)
            else:
                self._fail(f"{external_id}: not acknowledged after 20 tries")

    def _count(self, answer: str) -> None:
        with self.lock:
            self.answers[answer] += 1

    def _fail(self, what: str) -> None:
        with self.lock:
            self.failures.append(what)

    def wait_acknowledged(self, n: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while len(self.acknowledged) < n and not self.failures:
            assert time.monotonic() < deadline, f"{len(self.acknowledged)} of {n} acknowledged"
            time.sleep(0.05)

    def join(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        for t in self.threads:
            t.join(max(deadline - time.monotonic(), 0.1))
        assert not any(t.is_alive() for t in self.threads), "the upload stream did not finish"
        self.seconds = time.monotonic() - self.t0

    def summary(self) -> str:
        answers = ", ".join(f"{k}: {v}" for k, v in sorted(self.answers.items()))
        n = len(self.acknowledged)
        rate = f"{n / self.seconds:.0f}/s" if self.seconds else "running"
        return f"{n} uploads acknowledged ({rate}); answers seen: {answers}"


def served_by(compose: Compose, since: int = 0, until: int | None = None) -> Counter[str]:
    """How many requests each replica (by IP) answered below 500, from nginx's access log lines
    `since:until`: the last address tried is the one that answered."""
    lines = compose.out("logs", "--no-color", "nginx").splitlines()[since:until]
    out: Counter[str] = Counter()
    for line in lines:
        m = re.search(r'" (\d{3}) \d+ upstream=(\S.*?) upstream_status=', line)
        if m and m[2] != "-" and int(m[1]) < 500:
            out[m[2].split(",")[-1].strip().rsplit(":", 1)[0]] += 1
    return out


def log_length(compose: Compose) -> int:
    """How many lines nginx's log has now (served_by's `since`)."""
    return len(compose.out("logs", "--no-color", "nginx").splitlines())


def sql(compose: Compose, service: str, query: str) -> list[str]:
    """Rows of a query run by psql inside a PostgreSQL service, as 'a|b' lines."""
    out = compose.out(
        "exec", "-T", service, "psql", "-X", "-At", "-U", "benchdash", "-d", "benchdash",
        "-c", query,
    )  # fmt: skip
    return [line for line in out.splitlines() if line]
