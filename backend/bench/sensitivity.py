"""Each detector constant moved by ±50 %, one at a time: how the figures respond.

`patched(name, factor)` sets the constant on every module that reads it (integers are
rounded, never below 1; for a share near 1 — CONFIDENCE, HELD — it is the complement that
is scaled, e.g. CONFIDENCE 95 % ×1.5 means a 7.5 % miss rate: 92.5 %) and derives the
windows that follow from them again, as `detector.py` does at import; it runs in a worker
process, so nothing leaks back.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager

# constant: the modules (under benchdash.regression) that read it by name
CONSTANTS: dict[str, tuple[str, ...]] = {
    "FLOOR_K": ("floors",),
    "RESOLUTION_STEPS": ("floors",),
    "VARIATION_RUNS": ("floors", "detector"),
    "MIN_HISTORY": ("floors", "detector", "changepoint"),
    "ALPHA": ("changepoint",),
    "DRIFT_ALPHA": ("drift",),
    "PERSIST": ("drift",),
    "BEFORE_RUNS": ("changepoint",),
    "LEFT_RUNS": ("changepoint",),
    "MIN_RIGHT": ("changepoint",),
    "PERSIST_RUNS": ("changepoint",),
    "MAX_AGE": ("changepoint",),
    "HELD": ("changepoint",),
    "CONFIDENCE": ("grade",),
    "WARMUP_K": ("alerting",),
    "DRIFT_RUNS": ("drift",),
    "LEVEL_RUNS": ("drift",),
    "DRIFT_BACK": ("alerting",),
}


COMPLEMENT = {"CONFIDENCE", "HELD"}


def _mod(name: str):  # type: ignore[no-untyped-def]
    return importlib.import_module(f"benchdash.regression.{name}")


def value(name: str) -> float:
    """The constant's current value."""
    return float(getattr(_mod(CONSTANTS[name][0]), name))


def derive() -> None:
    """Recompute the windows derived from the constants (as at import)."""
    cp, dr, det = _mod("changepoint"), _mod("drift"), _mod("detector")
    dr.HISTORY = dr.DRIFT_RUNS + dr.LEVEL_RUNS + dr.PERSIST - 2
    det.STEP_HISTORY = cp.LEFT_RUNS + cp.MAX_AGE
    det.HISTORY_NEEDED = max(det.STEP_HISTORY, det.VARIATION_RUNS, dr.HISTORY)


@contextmanager
def patched(name: str, factor: float) -> Iterator[float]:
    """The constant times `factor` while inside; yields the value used."""
    mods = [_mod(m) for m in CONSTANTS[name]]
    old = getattr(mods[0], name)
    if name in COMPLEMENT:
        new = 1 - (1 - old) * factor
    else:
        new = max(1, round(old * factor)) if isinstance(old, int) else old * factor
    for m in mods:
        setattr(m, name, new)
    derive()
    try:
        yield new
    finally:
        for m in mods:
            setattr(m, name, old)
        derive()
