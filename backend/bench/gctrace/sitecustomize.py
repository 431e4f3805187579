"""Imported by every Python process started with this folder on PYTHONPATH (`reads.py
--trace-gc`): each garbage collection that takes 1 ms or more is appended to the file named by
BENCHDASH_GC_TRACE as `pid start ms generation`, start on the system-wide monotonic clock."""

from __future__ import annotations

import gc
import os
import time
from typing import Any

_PATH = os.environ.get("BENCHDASH_GC_TRACE")
_started = [0.0]


def _note(phase: str, info: dict[str, Any]) -> None:
    now = time.monotonic()
    if phase == "start":
        _started[0] = now
        return
    ms = 1000 * (now - _started[0])
    if _PATH and ms >= 1.0:
        with open(_PATH, "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()} {_started[0]:.6f} {ms:.2f} {info['generation']}\n")


if _PATH:
    gc.callbacks.append(_note)
