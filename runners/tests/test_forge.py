"""The pull request report's pieces: the verdict table, the check conclusion and the target."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from benchdash_runner.forge import table, target


def verdict(**kw: Any) -> dict[str, Any]:
    v = {
        "benchmark": "parse",
        "parameters": {"size": 64},
        "metric": "throughput",
        "unit": "req/s",
        "direction": "higher_is_better",
        "level": "ok",
        "stage": None,
        "change_pct": 0.4,
        "floor_warn": 5.0,
        "floor_fail": 10.0,
        "baseline_run_ids": [3, 9, 5],
        "series_url": "/systems/sx?benchmark=parse&metric=throughput&branch=f",
    }
    return {**v, **kw}


ALERT = {
    "status": "open",
    "level": "fail",
    "branch": "f",
    "testbed": "box",
    "benchmark": "parse",
    "parameters": {},
    "metric": "throughput",
    "direction": "higher_is_better",
    "change_pct": 30.0,
    "warn_floor": 5.0,
    "run_id": 11,
    "last_good_run_id": 10,
    "commit": "abc",
    "series_url": "/systems/sx?benchmark=parse",
}
RUN = {"id": 12, "system": "sx", "branch": "f", "testbed": "box", "url": "/runs/12"}


@pytest.mark.parametrize(
    ("verdicts", "alerts", "expected"),
    [
        ([verdict()], [], "success"),
        ([verdict(level="improved", change_pct=-8.0)], [], "success"),
        ([verdict(level="fail", stage="suspected", change_pct=30.0)], [], "neutral"),
        ([verdict(level="warn", stage="suspected", change_pct=6.0)], [], "neutral"),
        ([verdict(level="fail", stage="confirmed", change_pct=30.0)], [], "failure"),
        ([verdict()], [ALERT], "failure"),
        ([verdict()], [{**ALERT, "level": "warn"}], "neutral"),
    ],
)
def test_conclusion_fails_only_on_a_confirmed_fail(
    verdicts: list[dict[str, Any]], alerts: list[dict[str, Any]], expected: str
) -> None:
    assert table.conclusion(verdicts, alerts) == expected


def test_body_shows_change_in_own_direction_floor_stage_and_links() -> None:
    worse = verdict(level="fail", stage="suspected", change_pct=30.0)
    text = table.body(
        response={"run": RUN, "verdicts": [worse, verdict(benchmark="other")]},
        alerts=[],
        base_url="https://bench.example/",
        system="sx",
    )
    assert text.startswith("<!-- benchdash-report system=sx -->\n")
    row = next(line for line in text.splitlines() if "parse {size=64}" in line)
    assert "-30.0 % · worse" in row and "+30.0" not in row  # throughput fell
    assert "5.0 % / 10.0 %" in row and "suspected" in row
    assert "(https://bench.example/systems/sx?benchmark=parse&metric=throughput&branch=f)" in row
    assert "(https://bench.example/compare?system=sx&head=12&base=9)" in row  # newest baseline
    assert "other" not in text  # an unchanged series gets no row
    assert "[run 12](https://bench.example/runs/12)" in text


def test_open_alerts_of_other_branches_or_testbeds_are_left_out() -> None:
    alerts = [
        ALERT,
        {**ALERT, "branch": "main"},
        {**ALERT, "testbed": "x"},
        {**ALERT, "status": "resolved"},
    ]
    assert table.branch_alerts(alerts, RUN) == [ALERT]
    text = table.body(
        response={"run": RUN, "verdicts": []}, alerts=[ALERT], base_url="", system="sx"
    )
    assert "Confirmed steps open on this branch" in text
    assert "-30.0 % · worse" in text and "compare?system=sx&head=11&base=10" in text


def _ns(forge: str, **kw: Any) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    target.add_arguments(p)
    ns = p.parse_args(["--report", forge])
    for k, v in kw.items():
        setattr(ns, k, v)
    return ns


def test_github_target_from_the_event(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    event = tmp_path / "event.json"
    pr = {"number": 5, "head": {"sha": "h" * 40, "repo": {"full_name": "me/w"}}}
    event.write_text(json.dumps({"pull_request": {**pr, "base": {"repo": {"full_name": "o/w"}}}}))
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(event))
    monkeypatch.setenv("GITHUB_REPOSITORY", "o/w")
    monkeypatch.setenv("GITHUB_TOKEN", "t")
    monkeypatch.setenv("GITHUB_SHA", "m" * 40)
    t = target.from_env(_ns("github"), "sx")
    assert (t.repo, t.number, t.sha, t.check_name) == ("o/w", 5, "h" * 40, "benchdash / sx")
    assert t.fork == "me/w" and t.skip is not None and "fork me/w" in t.skip
    same = json.dumps({"pull_request": {**pr, "base": {"repo": {"full_name": "me/w"}}}})
    event.write_text(same)
    assert target.from_env(_ns("github"), "sx").skip is None
    flags = target.from_env(_ns("github", report_number=9, report_sha="s"), "sx")
    assert (flags.number, flags.sha) == (9, "s")


def test_github_push_and_missing_token(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GITHUB_EVENT_PATH", "GITHUB_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GITHUB_REF", "refs/pull/17/merge")
    t = target.from_env(_ns("github"), "sx")
    assert t.number == 17 and t.skip == "$GITHUB_TOKEN is not set (no token for the github API)"


def test_gitlab_target(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI_API_V4_URL", "https://gl.example/api/v4")
    monkeypatch.setenv("CI_PROJECT_ID", "42")
    monkeypatch.setenv("CI_MERGE_REQUEST_IID", "3")
    monkeypatch.setenv("BENCHDASH_GITLAB_TOKEN", "g")
    t = target.from_env(_ns("gitlab"), "sx")
    assert (t.api_url, t.repo, t.number, t.token, t.skip) == (
        "https://gl.example/api/v4",
        "42",
        3,
        "g",
        None,
    )
    monkeypatch.setenv("CI_MERGE_REQUEST_PROJECT_ID", "42")
    monkeypatch.setenv("CI_MERGE_REQUEST_SOURCE_PROJECT_ID", "77")
    assert target.from_env(_ns("gitlab"), "sx").fork == "project 77"
