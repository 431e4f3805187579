"""The pull request report's pieces: the verdict table, the check conclusion and the target."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from benchdash_runner.decision import decide
from benchdash_runner.forge import gitlab, table, target


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


def _pr(*outcomes: str) -> dict[str, Any]:
    series = [
        {
            "benchmark": "parse",
            "params_key": f'{{"size":{i}}}',
            "metric": "throughput",
            "outcome": o,
            "reason": f"reason {o}",
        }
        for i, o in enumerate(outcomes)
    ]
    return {"verdict": "?", "base_branch": "main", "base_runs": [], "series": series}


@pytest.mark.parametrize(
    ("response", "fail_on", "expected"),
    [
        ({"verdicts": [verdict()]}, "fail", "success"),
        ({"verdicts": [verdict(level="improved", change_pct=-8.0)]}, "fail", "success"),
        (
            {"verdicts": [verdict(level="fail", stage="suspected", change_pct=30.0)]},
            "fail",
            "failure",
        ),
        ({"verdicts": [verdict(level="fail", stage="suspected")]}, "never", "neutral"),
        (
            {"verdicts": [verdict(level="warn", stage="suspected", change_pct=6.0)]},
            "fail",
            "neutral",
        ),
        ({"verdicts": [verdict(level="warn", stage="suspected")]}, "warn", "failure"),
        ({"verdicts": [verdict(level="fail", stage="confirmed")]}, "fail", "failure"),
        # A pull request's series are decided by its verdict against the base, not by level:
        (
            {"verdicts": [verdict(level="fail", params_key='{"size":0}')], "pr": _pr("uncertain")},
            "fail",
            "neutral",
        ),
        (
            {"verdicts": [verdict(params_key='{"size":0}')], "pr": _pr("ok", "fail")},
            "fail",
            "failure",
        ),
        ({"verdicts": [], "pr": _pr("warn")}, "fail", "neutral"),
        ({"verdicts": [], "pr": _pr("warn")}, "warn", "failure"),
        ({"verdicts": [], "pr": _pr("fail")}, "never", "neutral"),
        ({"verdicts": [], "pr": _pr("ok", "no_base")}, "fail", "success"),
    ],
)
def test_one_decision_for_exit_code_and_check(
    response: dict[str, Any], fail_on: str, expected: str
) -> None:
    d = decide(response, fail_on)
    assert d.conclusion == expected, d
    assert d.fails == (expected == "failure")
    if response.get("pr") and expected == "neutral":
        assert any("reason" in line for line in d.neutral) and "against main" in d.title
    if expected != "success":
        assert gitlab.state(d)[0] == ("failed" if expected == "failure" else "success")
    if expected == "neutral":
        assert gitlab.state(d)[1].startswith("neutral: ")


def test_body_shows_change_in_own_direction_floor_stage_and_links() -> None:
    worse = verdict(level="fail", stage="suspected", change_pct=30.0)
    text = table.body(
        response={"run": RUN, "verdicts": [worse, verdict(benchmark="other")]},
        alerts=[],
        base_url="https://bench.example/",
        system="sx",
        decided=decide({"verdicts": [worse]}, "fail"),
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
        response={"run": RUN, "verdicts": []},
        alerts=[ALERT],
        base_url="",
        system="sx",
        decided=decide({}, "fail"),
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


def test_body_names_the_base_runs_and_the_uncertain_series_reason() -> None:
    pr = _pr("uncertain", "ok")
    pr["series"][0].update(change_pct=2.0, low_pct=-12.0, high_pct=16.0, samples=5)
    pr["base_runs"] = [{"run_id": 3, "commit": "a" * 40}, {"run_id": 4, "commit": "b" * 40}]
    response = {"run": RUN, "verdicts": [], "pr": pr}
    text = table.body(
        response=response,
        alerts=[],
        base_url="https://b.x",
        system="sx",
        decided=decide(response, "fail"),
    )
    assert "Compared with the last runs of `main`: [3](https://b.x/runs/3) `aaaaaaa`" in text
    assert "[4](https://b.x/runs/4) `bbbbbbb`" in text
    row = next(line for line in text.splitlines() if "uncertain" in line)
    assert "2.0 % worse (worse by -12.0 … 16.0 %)" in row and "reason uncertain" in row
    assert "⚠️" in text.splitlines()[1]
