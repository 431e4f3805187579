"""The tables `detection.py` prints beside its synthetic set: eval-dev by half, the held-out
synthetic families, and the sensitivity of every constant (±50 %)."""

from __future__ import annotations

import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import evaldev
import holdout
import sensitivity
import synthetic_holdout

CASES: list[dict[str, Any]] = []
FAMILIES: list[synthetic_holdout.Family] = []


def _init(path: Path | None, entropy: int = synthetic_holdout.ENTROPY) -> None:
    CASES[:] = evaldev.load(path) if path is not None else []
    FAMILIES[:] = synthetic_holdout.dataset(entropy=entropy)


def _real(i: int) -> list[tuple[int, str, str]]:
    return evaldev.ours(CASES[i])


def _held(i: int) -> list[dict[str, Any]]:
    return holdout.run(FAMILIES[i])


def real(path: Path, jobs: int) -> None:
    """eval-dev's tuning and test halves, our detector beside median5 and prev, one run."""
    sd = evaldev.scorer(path)
    t0 = time.monotonic()
    with Pool(jobs, _init, (path,)) as pool:
        ours = pool.map(_real, range(len(evaldev.load(path))), chunksize=4)
    cases = evaldev.load(path)
    flags = {
        "median5": [
            sd.rule_median5([p["value"] for p in c["points"]], c["direction"]) for c in cases
        ],
        "prev": [sd.rule_prev([p["value"] for p in c["points"]], c["direction"]) for c in cases],
        "benchdash": [[(i, lvl) for i, lvl, _ in out] for out in ours],
    }
    drifts = {h: 0 for h in ("tune", "test")}
    for c, out in zip(cases, ours, strict=True):
        drifts[c["half"]] += sum(1 for *_, kind in out if kind == "drift")
    print(f"\n## Real histories ({path}), split by project ({time.monotonic() - t0:.0f} s)\n")
    print(f"tune: {', '.join(evaldev.TUNE)}; test: {', '.join(evaldev.TEST)}\n")
    print("| detector | " + " | ".join(evaldev.HEAD) + " | drift alerts |")
    print("|" + "---|" * (len(evaldev.HEAD) + 2))
    for name, f in flags.items():
        t = evaldev.tallies(sd, cases, f)
        for h in ("tune", "test"):
            d = str(drifts[h]) if name == "benchdash" else "–"
            print(f"| {name} | {h} | " + " | ".join(evaldev.cells(sd, t, h)) + f" | {d} |")
    print("\nPer project (benchdash):\n")
    t = evaldev.tallies(sd, cases, flags["benchdash"])
    print("| project | half | events /100 runs | transient share % | events |")
    print("|---|---|---|---|---|")
    for p in (*evaldev.TUNE, *evaldev.TEST):
        x, h = t[p], "tune" if p in evaldev.TUNE else "test"
        share = sd.pct(x["tra"], x["sus"] + x["tra"], "%.1f")
        print(f"| {p} | {h} | {sd.pct(x['ev'], x['pts'])} | {share} | {x['ev']} |")


def held_out(jobs: int) -> None:
    """The held-out synthetic families (never tuned on): the first draw and a fresh one."""
    rows = {}
    for name, entropy in (
        ("first draw", synthetic_holdout.ENTROPY),
        ("fresh draw", synthetic_holdout.FRESH),
    ):
        series = synthetic_holdout.dataset(entropy=entropy)
        with Pool(jobs, _init, (None, entropy)) as pool:
            alerts = pool.map(_held, range(len(series)), chunksize=4)
        rows[f"benchdash, {name}"] = holdout.summary(series, alerts)
    print(f"\n## Held-out synthetic families ({len(series)} series per draw, new generators)\n")
    holdout.table(rows)


def _vary(job: tuple[str, float]) -> tuple[str, float, float, dict[str, str]]:
    name, factor = job
    sd = evaldev.scorer(PATH[0]) if PATH else None
    with sensitivity.patched(name, factor) as used:
        tune = [c for c in CASES if c["half"] == "tune"]
        flags = [[(i, lvl) for i, lvl, _ in evaldev.ours(c)] for c in tune]
        alerts = [holdout.run(s) for s in FAMILIES]
    cells = holdout.summary(FAMILIES, alerts)
    if sd is not None:
        x = evaldev.tallies(sd, tune, flags)["tune"]
        cells["tune events /100"] = sd.pct(x["ev"], x["pts"])
        cells["tune transient %"] = sd.pct(x["tra"], x["sus"] + x["tra"], "%.1f")
    return name, factor, float(used), cells


PATH: list[Path] = []


def _init_vary(path: Path | None) -> None:
    _init(path)
    half = synthetic_holdout.SERIES // 2  # 20 series per family keep the table quick
    FAMILIES[:] = [f for f in FAMILIES if int(f.id.rsplit("/", 1)[1]) < half]
    PATH[:] = [path] if path is not None else []


def sensitivity_table(path: Path | None, jobs: int) -> None:
    """Every constant at ×0.5 and ×1.5 (one at a time), on the tuning half and held-out set."""
    jobs_ = [("FLOOR_K", 1.0)] + [(n, f) for n in sensitivity.CONSTANTS for f in (0.5, 1.5)]
    t0 = time.monotonic()
    print("\n## Sensitivity: each constant ×0.5 and ×1.5, one at a time\n")
    print("(tuning half of eval-dev and the first held-out draw, 20 series per family; the test")
    print("half is not used here)\n", flush=True)
    with Pool(jobs, _init_vary, (path,)) as pool:
        for k, (name, factor, used, cells) in enumerate(pool.imap(_vary, jobs_), 1):
            label = "as shipped" if factor == 1.0 else f"{name} ×{factor:g} = {used:.4g}"
            if k == 1:
                print("| setting | " + " | ".join(cells) + " |")
                print("|" + "---|" * (len(cells) + 1))
            print(f"| {label} | " + " | ".join(cells.values()) + " |", flush=True)
            print(f"  {k}/{len(jobs_)} settings, {time.monotonic() - t0:.0f}s", file=sys.stderr)
