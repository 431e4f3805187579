"""A backtest's pure part: replay stored series through the detector (the same
`regression.replay` the `benchdash-server replay` command runs, CI-fed) and count what
would have opened beside what did. No database here: `queries.py` reads, this judges."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from benchdash.backtest.schemas import (
    BacktestAlert,
    BacktestRequest,
    BacktestSeries,
    Counts,
    Thresholds,
    Totals,
)
from benchdash.regression import engine
from benchdash.regression.model import Point
from benchdash.regression.replay import replay_decisions


@dataclass(frozen=True, kw_only=True)
class Stored:
    """One stored series as read: what names it, its thresholds now, its newest accepted points
    (oldest first) with their runs' start times, and its stored alerts among those runs."""

    meta: dict[str, Any]  # benchmark, benchmark_id, parameters, params_key, metric, unit, …
    direction: str
    current: engine.Thresholds
    points: Sequence[Point]
    started: Sequence[datetime]
    did_open: Sequence[BacktestAlert]


def thresholds_for(metric: str, request: BacktestRequest) -> engine.Thresholds:
    """The request's thresholds for `metric`: its override, else the request's warn/fail."""
    for o in request.overrides:
        if o.metric == metric:
            return engine.Thresholds(o.warn, o.fail)
    return engine.Thresholds(request.warn, request.fail)


def replay_series(s: Stored, thresholds: engine.Thresholds) -> BacktestSeries:
    """The alerts `s` would have opened under `thresholds`, uploaded run by run (CI-fed)."""
    would = []
    for o in replay_decisions(s.points, direction=s.direction, thresholds=thresholds):
        d, first = o.decision, s.points[o.index]
        would.append(
            BacktestAlert(
                kind=d.kind,
                level="fail" if d.level is engine.Level.FAIL else "warn",  # OPEN: warn | fail
                run_id=first.run_id,
                commit=first.commit,
                started_at=s.started[o.index],
                change_pct=d.change_pct,
                confirmed_by=d.confirmed_by,
                alarm_run_id=s.points[o.alarm_index].run_id,
            )
        )
    return BacktestSeries(
        **s.meta,
        direction=s.direction,
        runs=len(s.points),
        first_run_at=s.started[0],
        thresholds=Thresholds(warn=thresholds.warn, fail=thresholds.fail),
        current=Thresholds(warn=s.current.warn, fail=s.current.fail),
        would_open=would,
        did_open=list(s.did_open),
    )


def counts(alerts: Sequence[BacktestAlert], runs: int) -> Counts:
    """Events (alerts opened), per 100 replayed runs, per level and per kind."""
    return Counts(
        events=len(alerts),
        per_100_runs=round(100 * len(alerts) / runs, 3) if runs else 0.0,
        warn=sum(a.level == "warn" for a in alerts),
        fail=sum(a.level == "fail" for a in alerts),
        step=sum(a.kind == "step" for a in alerts),
        drift=sum(a.kind == "drift" for a in alerts),
    )


def totals(series: Sequence[BacktestSeries]) -> Totals:
    """The counts over every replayed series."""
    runs = sum(s.runs for s in series)
    return Totals(
        series=len(series),
        runs=runs,
        would_open=counts([a for s in series for a in s.would_open], runs),
        did_open=counts([a for s in series for a in s.did_open], runs),
    )
