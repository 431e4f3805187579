"""Replay one series through the detector exactly as uploads would arrive (CI-fed, no re-runs).

`benchdash-server replay` reads one series as JSON on stdin, the form `score_dev.py --cmd`
sends: ``{"direction": "lower_is_better" | "higher_is_better", "points": [{"value": float |
null, "commit"?: str, "samples"?: [float, ...]}, ...]}`` in run order (other keys are
ignored), and prints the alerts the product would open as ``[{"index": i, "level": "fail",
"alarm_index": j, "kind": "step"}]``: `index` is the step's first bad run (a drift's: the
first run after its reference level), `alarm_index` the run whose upload opened the alert,
`kind` "step" or "drift". Points with a null value are skipped (their index is never reported).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, TextIO

from benchdash.regression import detector
from benchdash.regression.confirm import confirm_reruns
from benchdash.regression.engine import HIGHER, LOWER, Thresholds
from benchdash.regression.model import Action, AlertDecision, Mode, OpenAlert, Point, Stage


class ReplayError(ValueError):
    """The input is not a series the replay can read."""


@dataclass(frozen=True)
class Opened:
    """An alert the replay opened: the step's first bad run (a drift's: the first run after
    its reference level), the run whose upload opened it, and the decision itself."""

    index: int
    alarm_index: int
    decision: AlertDecision


def replay_decisions(
    points: Sequence[Point], *, direction: str, thresholds: Thresholds
) -> Iterator[Opened]:
    """Feed `points` one by one to `assess` (CI-fed), keeping the state the database would,
    and yield each alert it opens (indices into `points`)."""
    stored: list[Point] = []
    alert: OpenAlert | None = None
    for new in points:
        history = stored[-detector.HISTORY_NEEDED :]
        a = detector.assess(history, new, direction=direction, thresholds=thresholds, alert=alert)
        offset = len(stored) - len(history)
        stored.append(replace(new, stage=Stage.SUSPECTED if a.verdict.suspected else None))
        d = a.decision
        if d.action is Action.OPEN:
            assert d.first_bad_index is not None and d.level is not None
            i = offset + d.first_bad_index
            if d.kind == "step":  # a drift names a window, not a step's first bad run
                stored[i] = replace(stored[i], stage=Stage.CONFIRMED)
            assert d.baseline_value is not None and d.warn_floor is not None
            alert = OpenAlert(
                stored[i].run_id, d.baseline_value, d.warn_floor, d.kind, d.level, d.change_pct
            )
            yield Opened(i, len(stored) - 1, d)
        elif d.action is Action.RESOLVE:
            alert = None
        elif d.action is Action.KEEP and d.level is not None and alert is not None:
            alert = replace(alert, level=d.level, change_pct=d.change_pct)  # re-graded


def replay(
    points: Sequence[Point], *, direction: str, thresholds: Thresholds
) -> list[dict[str, Any]]:
    """The alerts `replay_decisions` opens, as the `replay` command prints them."""
    return [
        {
            "index": o.index,
            "level": o.decision.level.value,
            "alarm_index": o.alarm_index,
            "kind": o.decision.kind,
        }
        for o in replay_decisions(points, direction=direction, thresholds=thresholds)
        if o.decision.level is not None
    ]


def replay_runner(
    points: Sequence[Point],
    *,
    direction: str,
    thresholds: Thresholds,
    rerun: Callable[[int, int], Point],
    reruns: int = 2,
) -> list[dict[str, Any]]:
    """Runner-executed semantics: each suspected point gets `reruns` re-runs of its ref
    (`rerun(position, k)` measures them) and `confirm_reruns` decides; no change-point path."""
    stored: list[Point] = []
    alert: OpenAlert | None = None
    opened: list[dict[str, Any]] = []
    for new in points:
        history = stored[-detector.HISTORY_NEEDED :]
        a = detector.assess(
            history, new, direction=direction, thresholds=thresholds, alert=alert, mode=Mode.RUNNER
        )
        stage, d = None, a.decision
        if d.action is Action.RESOLVE:
            alert = None
        elif d.action is Action.KEEP and d.level is not None and alert is not None:
            alert = replace(alert, level=d.level, change_pct=d.change_pct)  # re-graded
        elif d.action is Action.OPEN:  # a drift (steps wait for re-runs)
            assert d.level is not None and d.first_bad_index is not None
            assert d.baseline_value is not None and d.warn_floor is not None
            i = len(stored) - len(history) + d.first_bad_index
            alert = OpenAlert(
                stored[i].run_id, d.baseline_value, d.warn_floor, d.kind, d.level, d.change_pct
            )
            opened.append({"index": i, "level": d.level.value, "kind": d.kind})
        if a.verdict.suspected:
            again = [rerun(len(stored), k) for k in range(reruns)]
            last_good = stored[-1] if stored else None
            d = confirm_reruns(
                suspect=new,
                verdict=a.verdict,
                reruns=again,
                direction=direction,
                last_good=last_good,
                alert=alert,
            )
            stage = Stage.CONFIRMED if d.action is Action.OPEN else Stage.DISMISSED
            if d.action is Action.OPEN:
                assert d.level is not None and d.baseline_value is not None
                assert d.warn_floor is not None
                alert = OpenAlert(
                    new.run_id,
                    d.baseline_value,
                    d.warn_floor,
                    level=d.level,
                    change_pct=d.change_pct,
                )
                opened.append({"index": len(stored), "level": d.level.value})
        stored.append(replace(new, stage=stage))
    return opened


def read_series(raw: str) -> tuple[list[Point], list[int], str]:
    """Parse the series JSON: (points with a value, their indices in the input, direction)."""
    try:
        doc = json.loads(raw)
    except ValueError as exc:
        raise ReplayError(f"stdin is not JSON: {exc}") from exc
    if not isinstance(doc, dict) or not isinstance(doc.get("points"), list):
        raise ReplayError('expected an object with a "points" list')
    direction = doc.get("direction")
    if direction not in (HIGHER, LOWER):
        raise ReplayError(f"direction must be {HIGHER!r} or {LOWER!r}, not {direction!r}")
    points: list[Point] = []
    where: list[int] = []
    for i, p in enumerate(doc["points"]):
        if not isinstance(p, dict):
            raise ReplayError(f"point {i}: expected an object, not {p!r}")
        value = p.get("value")
        if value is None:
            continue
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            raise ReplayError(f"point {i}: value must be a finite number, not {value!r}")
        samples = p.get("samples") or ()
        if not isinstance(samples, list | tuple) or not all(
            isinstance(s, int | float) and not isinstance(s, bool) and math.isfinite(s)
            for s in samples
        ):
            raise ReplayError(f"point {i}: samples must be finite numbers")
        commit = p.get("commit")
        points.append(Point(i, float(value), str(commit) if commit else None, tuple(samples)))
        where.append(i)
    return points, where, direction


def _alerts(raw: str, thresholds: Thresholds) -> list[dict[str, Any]]:
    points, where, direction = read_series(raw)
    alerts = replay(points, direction=direction, thresholds=thresholds)
    for a in alerts:
        a["index"], a["alarm_index"] = where[a["index"]], where[a["alarm_index"]]
    return alerts


def run(stdin: TextIO, stdout: TextIO, thresholds: Thresholds) -> int:
    """The `replay` command: series on stdin, alerts as JSON on stdout."""
    json.dump(_alerts(stdin.read(), thresholds), stdout)
    stdout.write("\n")
    return 0


def run_lines(stdin: TextIO, stdout: TextIO, thresholds: Thresholds) -> int:
    """`replay --jsonl`: one series per line in, one line per series out, in order:
    `{"id": <the series' id or its line number>, "alerts": [...]}`, or `{"id", "error"}` for a
    line that is not a series (the others are still replayed; the exit code is then 2)."""
    failed = False
    for number, line in enumerate(stdin, start=1):
        if not line.strip():
            continue
        try:
            key = json.loads(line).get("id", number)
        except (ValueError, AttributeError):
            key = number
        try:
            out: dict[str, Any] = {"id": key, "alerts": _alerts(line, thresholds)}
        except ReplayError as exc:
            failed = True
            out = {"id": key, "error": f"line {number}: {exc}"}
        stdout.write(json.dumps(out) + "\n")
        stdout.flush()
    return 2 if failed else 0
