"""Choosing the windowed test's constants on the eval-dev TUNE half only (issue 44).

    .venv/bin/python backend/bench/window_tune.py [--jobs 2] [--eval-dev DIR]

One line per candidate (the window test's constants, and how many earlier runs the detector
reads): the tune half's figures of `step_curve.real` — share of injected steps found, alert
events per 100 runs and transient share on the same series without injection. The test half
is never read here.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import step_curve

from benchdash.regression import detector, window

ROOT = Path(__file__).resolve().parents[2]
DEFAULTS = {
    "ALPHA": window.ALPHA,
    "WINDOWS": window.WINDOWS,
    "BASELINE": window.BASELINE,
    "MIN_BASELINE": window.MIN_BASELINE,
    "HISTORY": window.HISTORY,
}
CANDIDATES: list[tuple[str, dict[str, Any], int]] = [
    ("no window test (single-run floors only)", {"WINDOWS": ()}, detector.HISTORY_NEEDED),
    ("as chosen", {}, detector.HISTORY_NEEDED),
    ("ALPHA 1e-3", {"ALPHA": 1e-3}, detector.HISTORY_NEEDED),
    ("ALPHA 3e-4", {"ALPHA": 3e-4}, detector.HISTORY_NEEDED),
    ("ALPHA 1e-5", {"ALPHA": 1e-5}, detector.HISTORY_NEEDED),
    ("BASELINE 20", {"BASELINE": 20, "MIN_BASELINE": 20}, detector.HISTORY_NEEDED),
    ("windows 5-15 only", {"WINDOWS": (5, 8, 12, 15)}, detector.HISTORY_NEEDED),
    ("guard 90 runs, 115 runs read", {"HISTORY": 90}, 115),
]


def main() -> int:
    """Print the tune half's figures for each candidate."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--eval-dev", type=Path, default=ROOT.parent / "shared" / "eval-dev")
    a = ap.parse_args()
    head = None
    for name, change, needed in CANDIDATES:
        for k, v in {**DEFAULTS, **change}.items():
            setattr(window, k, v)
        detector.HISTORY_NEEDED = needed
        got = step_curve.real(a.eval_dev, "tune", a.jobs, quick=False, show=False)
        if head is None:
            head = list(got)
            print("| candidate | runs read | " + " | ".join(head) + " |")
            print("|" + "---|" * (len(head) + 2))
        print(
            f"| {name} | {needed} | " + " | ".join(f"{got[h]:.2f}" for h in head) + " |", flush=True
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
