"""The real histories of ../shared/eval-dev, split by project into a tuning and a test half.

The split is the one eval-dev's README proposes, by project (never by series, so no project
is seen on both sides), deterministic and fixed here: TUNE = pydantic-core, snarkVM,
mls-rs, finch (pytest, cargo ×2, go; 206 series, 20,510 runs); TEST = rune, spicedb, jsii
(cargo, go, custom; 241 series, 19,735 runs). Constants are chosen on the tuning half only;
the test half is reported beside it, never tuned on.

Scoring is eval-dev's own (`score_dev.py`'s functions, imported): events per 100 runs, fail
events, transient share; the references `median5` and `prev` run on the same series in the
same run. Our detector runs in-process (the `replay` code, CI-fed), not once per process.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

from benchdash.regression.engine import Thresholds
from benchdash.regression.replay import read_series, replay

TUNE = ("pydantic/pydantic-core", "AleoNet/snarkVM", "awslabs/mls-rs", "runfinch/finch")
TEST = ("rune-rs/rune", "authzed/spicedb", "aws/jsii")


def scorer(path: Path) -> ModuleType:
    """eval-dev's score_dev.py, imported as a module (stdlib only)."""
    spec = importlib.util.spec_from_file_location("score_dev", path / "score_dev.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def half(case: dict[str, Any]) -> str:
    """'tune' or 'test', by the series' project."""
    project = case["source"].split("@", 1)[0]
    if project in TUNE:
        return "tune"
    if project in TEST:
        return "test"
    raise ValueError(f"project {project!r} is in neither half")


def load(path: Path) -> list[dict[str, Any]]:
    """Every series of series.jsonl (each tagged with its half)."""
    cases = [json.loads(line) for line in (path / "series.jsonl").read_text().splitlines()]
    for c in cases:
        c["half"] = half(c)
    return cases


def ours(case: dict[str, Any]) -> list[tuple[int, str, str]]:
    """(index, level, kind) of every alert the product would open on the series."""
    points, where, direction = read_series(json.dumps(case))
    out = replay(points, direction=direction, thresholds=Thresholds())
    return [(where[a["index"]], a["level"], a.get("kind", "step")) for a in out]


def tallies(
    sd: ModuleType, cases: list[dict[str, Any]], flags: list[list[tuple[int, str]]]
) -> dict[str, dict[str, Any]]:
    """score_dev tallies by half ('tune', 'test') and by project."""
    out: dict[str, dict[str, Any]] = {}
    for case, f in zip(cases, flags, strict=True):
        t_half = out.setdefault(case["half"], sd.new_tally())
        t_src = out.setdefault(sd.source_of(case), sd.new_tally())
        sd.score_case(case, f, (t_half, t_src), None, "")
    return out


def cells(sd: ModuleType, t: dict[str, dict[str, Any]], which: str) -> list[str]:
    """events /100, fail events /100, transient share %, mean events /100 over projects."""
    x = t[which]
    projects = TUNE if which == "tune" else TEST
    per = [100 * t[p]["ev"] / t[p]["pts"] for p in projects if p in t and t[p]["pts"]]
    return [
        str(x["series"]),
        str(x["pts"]),
        sd.pct(x["ev"], x["pts"]),
        sd.pct(x["fail"], x["pts"]),
        sd.pct(x["tra"], x["sus"] + x["tra"], "%.1f"),
        f"{sum(per) / len(per):.2f}" if per else "–",
        str(x["ev"]),
    ]


HEAD = [
    "half",
    "series",
    "runs",
    "events /100 runs",
    "fail events /100",
    "transient share %",
    "mean of projects' events /100",
    "events",
]
