"""Follow a run's server-sent events (GET /api/v1/runs/{id}/events) until it ends.

Progress is a bar on a terminal and a line per 10 % step elsewhere (CI logs); state changes
and the agent's log lines are printed as they come. A dropped stream is resumed after the last
event id it delivered, so nothing is printed twice.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import httpx
from httpx_sse import SSEError, connect_sse
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeRemainingColumn

RETRY_S = 2.0


class GaveUp(Exception):
    """The run did not end within the wait allowed."""


def console() -> Console:
    """stdout, wide in CI logs (they are not terminals but are wide)."""
    return Console(width=None if sys.stdout.isatty() else 160, highlight=False)


class _Display:
    def __init__(self, show_log: bool) -> None:
        self.show_log = show_log
        self.err = Console(stderr=True, highlight=False)
        self.bar: Progress | None = None
        self.task: TaskID | None = None
        self.step = -1

    def progress(self, data: dict[str, Any]) -> None:
        percent = float(data.get("percent") or 0.0)
        label = f"{data.get('done', '?')}/{data.get('total', '?')} {data.get('scenario') or ''}"
        if not self.err.is_terminal:
            if int(percent // 10) > self.step:
                self.step = int(percent // 10)
                self.err.print(f"progress: {percent:.0f} % ({label.strip()})")
            return
        if self.bar is None:
            columns = (
                TextColumn("{task.description}"),
                BarColumn(),
                TextColumn("{task.percentage:>3.0f} %"),
            )
            self.bar = Progress(*columns, TimeRemainingColumn(), console=self.err)
            self.bar.start()
            self.task = self.bar.add_task(label, total=100, completed=int(percent))
        assert self.task is not None
        self.bar.update(self.task, completed=percent, description=label)

    def say(self, text: str) -> None:
        (self.bar.console if self.bar else self.err).print(text, markup=False)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def follow(
    http: httpx.Client, run_id: int, *, max_wait_s: float, show_log: bool
) -> tuple[str, str | None]:
    """Print the run's progress until it ends: its final status and message."""
    deadline = time.monotonic() + max_wait_s
    after, status, message = 0, "queued", None
    display = _Display(show_log)
    try:
        while time.monotonic() < deadline:
            try:
                with connect_sse(
                    http,
                    "GET",
                    f"/api/v1/runs/{run_id}/events",
                    params={"after": after},
                    timeout=httpx.Timeout(30.0, read=60.0),
                ) as source:
                    if source.response.status_code >= 400:
                        source.response.read()
                        source.response.raise_for_status()
                    for event in source.iter_sse():
                        if event.id and event.id.isdigit():
                            after = int(event.id)
                        data = event.json() if event.data else {}
                        if event.event == "end":
                            return str(data["status"]), message
                        status, message = _show(display, event.event, data, status, message)
                        if time.monotonic() >= deadline:
                            break
            except (httpx.TransportError, SSEError) as e:
                display.say(f"event stream interrupted ({type(e).__name__}); resuming")
            except httpx.HTTPStatusError as e:
                if e.response.status_code < 500:
                    raise
            time.sleep(RETRY_S)
    finally:
        display.close()
    raise GaveUp(f"run {run_id} still {status} after {max_wait_s:.0f} s")


def _show(
    display: _Display, kind: str, data: dict[str, Any], status: str, message: str | None
) -> tuple[str, str | None]:
    if kind in ("snapshot", "state"):
        if data.get("status") != status or kind == "state":
            status = str(data.get("status"))
            display.say(f"run {status}" + (f": {data['message']}" if data.get("message") else ""))
        message = data.get("message") or message
        if kind == "snapshot" and data.get("progress"):
            display.progress(data["progress"])
    elif kind == "progress":
        display.progress(data)
    elif kind == "log" and display.show_log:
        for line in data.get("lines") or []:
            display.say(f"  | {line}")
    return status, message
