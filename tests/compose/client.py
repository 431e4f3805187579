"""The stack's API through its published port, as a browser would use it (session cookie)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

TERMINAL = {"completed", "failed", "cancelled", "timed_out"}
LEVELS = {"ok", "improved", "warn", "fail", "noisy", "unstable", "learning", "no_baseline"}


class Client:
    """Signs in with the admin password and keeps the session cookie (sent by hand: the API
    marks it Secure in production, and this talks plain HTTP to localhost)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.cookie: str | None = None

    def call(self, method: str, path: str, body: Any = None, timeout: float = 30) -> Any:
        """One JSON request; HTTP errors raise with the problem+json body in the message."""
        headers = {"content-type": "application/json", "x-benchdash-csrf": "1"}
        if self.cookie:
            headers["cookie"] = self.cookie
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                if method == "POST" and path.endswith("/login"):
                    self.cookie = r.headers["set-cookie"].split(";", 1)[0]
                raw = r.read()
        except urllib.error.HTTPError as exc:
            raise AssertionError(f"{method} {path}: {exc.code} {exc.read()[:500]!r}") from None
        return json.loads(raw) if raw else None

    def sign_in(self, username: str, password: str) -> None:
        """POST /auth/login, then check /auth/me names the user."""
        self.call("POST", "/api/v1/auth/login", {"username": username, "password": password})
        me = self.call("GET", "/api/v1/auth/me")
        assert me and me["username"] == username, me

    def ready(self, timeout: float) -> float:
        """Wait for /readyz to answer 200; returns the seconds waited."""
        t0 = time.monotonic()
        last: object = None
        while time.monotonic() - t0 < timeout:
            try:
                with urllib.request.urlopen(self.url + "/readyz", timeout=3) as r:
                    if r.status == 200:
                        return time.monotonic() - t0
            except (OSError, urllib.error.HTTPError) as exc:
                last = exc
            time.sleep(1)
        raise AssertionError(f"the API was not ready within {timeout:.0f} s (last: {last})")

    def wait_registered(self, system: str, timeout: float) -> dict[str, Any]:
        """The system as its runner agent registered it (profiles present)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                detail = self.call("GET", f"/api/v1/systems/{system}")
                if detail.get("profiles"):
                    return dict(detail)
            except AssertionError:
                pass
            time.sleep(2)
        raise AssertionError(f"runner-{system} did not register within {timeout:.0f} s")

    def events(
        self, run_id: int, timeout: float, on_event: Callable[[str, dict[str, Any]], None]
    ) -> list[tuple[str, dict[str, Any]]]:
        """Follow the run's server-sent events until the stream ends (run finished)."""
        out: list[tuple[str, dict[str, Any]]] = []
        req = urllib.request.Request(f"{self.url}/api/v1/runs/{run_id}/events")
        deadline = time.monotonic() + timeout
        with urllib.request.urlopen(req, timeout=60) as r:  # keep-alives every 15 s
            kind = None
            for raw in r:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: ") and kind:
                    out.append((kind, json.loads(line[6:])))
                    on_event(kind, out[-1][1])
                    if kind == "end":
                        return out
                if time.monotonic() > deadline:
                    raise AssertionError(f"run {run_id} did not end within {timeout:.0f} s")
        raise AssertionError(f"the event stream of run {run_id} closed before its end event")

    def snapshot(self) -> dict[str, Any]:
        """What must survive restarts: every run with its measurements and verdicts, the systems."""
        runs = self.call("GET", "/api/v1/runs?limit=500")["items"]
        out: dict[str, Any] = {
            "systems": sorted(s["slug"] for s in self.call("GET", "/api/v1/systems"))
        }
        for run in sorted(runs, key=lambda r: r["id"]):
            detail = self.call("GET", f"/api/v1/runs/{run['id']}")
            out[f"run {run['id']}"] = {
                "system": detail["system"],
                "status": detail["status"],
                "commit": detail["commit"],
                "measurements": sorted(
                    (m["measurement_id"], m["benchmark"], m["metric"], m["value"], m["level"])
                    for m in detail["measurements"]
                ),
            }
        return out
