"""Processes a harness starts, each in a process group of its own, stopped group and all: an API
runs as a supervisor and its workers, and a worker whose supervisor is gone is re-parented to
init and listens on (issue 42), so stopping only the leader is not enough."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from typing import Any


def spawn(cmd: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
    """`subprocess.Popen` in a new session (so a new process group led by the child)."""
    return subprocess.Popen(cmd, start_new_session=True, **kwargs)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stop(proc: subprocess.Popen[Any], timeout: float = 20) -> None:
    """SIGTERM to the child's whole group; SIGKILL to what is left after `timeout` seconds."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=timeout)
    deadline = time.monotonic() + timeout
    while _group_alive(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
