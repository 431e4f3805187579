"""The agent's side of the HTTP API: register, ask for work, report, upload, heartbeat."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import httpx


class ApiError(Exception):
    """The server refused or could not be reached after retries."""


@dataclass(frozen=True)
class Ack:
    """The server's answer to a report."""

    status: str
    cancel_requested: bool


@dataclass(frozen=True)
class Work:
    """The API's answer to a claim: a run to carry out, or why there is none."""

    run_id: int | None
    reason: str | None
    source_url: str | None = None  # the system's git source: fetch the run's ref from there


class AgentApi:
    """A small client with retries on connection errors and 5xx (reports are idempotent)."""

    def __init__(self, base_url: str, token: str, *, timeout: float = 30.0) -> None:
        self._http = httpx.Client(
            base_url=base_url.rstrip("/"),
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
        )

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

    def _call(
        self,
        method: str,
        path: str,
        body: Any = None,
        attempts: int = 4,
        timeout: float | None = None,
    ) -> Any:
        delay = 0.5
        limit = self._http.timeout if timeout is None else httpx.Timeout(timeout)
        for attempt in range(1, attempts + 1):
            try:
                r = self._http.request(method, path, json=body, timeout=limit)
            except httpx.TransportError as exc:
                if attempt == attempts:
                    raise ApiError(f"{method} {path}: {exc}") from exc
            else:
                if r.status_code < 500:
                    if r.status_code >= 400:
                        detail = r.json().get("detail", r.text) if r.content else r.reason_phrase
                        raise ApiError(f"{method} {path}: {r.status_code} {detail}")
                    return r.json() if r.content else None
                if attempt == attempts:
                    raise ApiError(f"{method} {path}: {r.status_code} {r.text[:200]}")
            time.sleep(delay)
            delay *= 2
        raise AssertionError("unreachable")

    def register(self, system: str, manifest: dict[str, Any]) -> None:
        """PUT the manifest so the API learns profiles, metrics and thresholds."""
        self._call("PUT", f"/api/v1/systems/{system}/manifest", manifest)

    def run(self, run_id: int) -> dict[str, Any]:
        """The run as the API sees it."""
        data: dict[str, Any] = self._call("GET", f"/api/v1/runs/{run_id}")
        return data

    def report(self, run_id: int, **body: Any) -> Ack:
        """Heartbeat with optional status, message, progress and log lines."""
        data = self._call("POST", f"/api/v1/runs/{run_id}/report", body)
        return Ack(status=data["status"], cancel_requested=data["cancel_requested"])

    def upload(self, document: dict[str, Any]) -> dict[str, Any]:
        """POST the result document (it names the run, which it completes)."""
        data: dict[str, Any] = self._call("POST", "/api/v1/results", document)
        return data

    def heartbeat(self, system: str, name: str, host: str) -> int:
        """Say this agent is alive (once, no retries); returns the system's live agents."""
        body = {"name": name, "host": host}
        data = self._call("POST", f"/api/v1/systems/{system}/agents/heartbeat", body, attempts=1)
        return int(data["live_agents"])

    def claim(self, system: str, name: str, host: str, wait_s: float = 0.0) -> Work:
        """Ask for the system's next queued run (once, no retries: the agent asks again), the
        API holding the question up to `wait_s` while there is none (long poll)."""
        body = {"name": name, "host": host, "wait_s": wait_s}
        path = f"/api/v1/systems/{system}/agents/claim"
        data = self._call("POST", path, body, attempts=1, timeout=wait_s + 30)
        return Work(
            run_id=data.get("run_id"), reason=data.get("reason"), source_url=data.get("source_url")
        )

    def commits(self, run_id: int, body: dict[str, Any]) -> dict[str, Any]:
        """Answer a `revlist` task: the range's commits (or an error); completes the task."""
        data: dict[str, Any] = self._call("POST", f"/api/v1/runs/{run_id}/commits", body)
        return data

    def source(self, system: str) -> dict[str, Any]:
        """The system's source (URL, default branch), as an admin set it."""
        data: dict[str, Any] = self._call("GET", f"/api/v1/systems/{system}/source")
        return data
