"""`benchdash-server replay`: the score_dev.py protocol, run as a real process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchdash.regression.replay import ReplayError, read_series

from .series import noisy

CLI = str(Path(sys.executable).with_name("benchdash-server"))


def run(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The command with no database settings in its environment."""
    env = {k: v for k, v in os.environ.items() if "DATABASE" not in k and "BENCHDASH" not in k}
    return subprocess.run(
        [CLI, "replay", *args], input=stdin, capture_output=True, text=True, env=env, timeout=120
    )


def doc(values: list[float | None], direction: str = "lower_is_better") -> str:
    """A series as score_dev.py sends it."""
    pts = [
        {"t": f"2024-01-01T00:{i // 60:02d}:{i % 60:02d}Z", "value": v, "commit": f"c{i}"}
        for i, v in enumerate(values)
    ]
    return json.dumps(
        {
            "id": "x",
            "source": "s",
            "subset": "t",
            "direction": direction,
            "unit": "ns",
            "points": pts,
        }
    )


def test_a_step_prints_one_alert_at_its_first_bad_run() -> None:
    values: list[float | None] = list(noisy(70, seed=1, step_at=50, step=0.15))
    values[20] = None  # nulls are skipped, indices stay those of the input
    out = run(doc(values))
    assert out.returncode == 0, out.stderr
    alerts = json.loads(out.stdout)
    assert [(a["index"], a["level"]) for a in alerts] == [(50, "fail")]
    assert 50 < alerts[0]["alarm_index"] <= 53


def test_thresholds_can_be_given() -> None:
    values = noisy(70, seed=1, step_at=50, step=0.15)
    assert json.loads(run(doc(values), "--warn", "20", "--fail", "30").stdout) == []
    assert run(doc(values), "--warn", "20", "--fail", "10").returncode == 2


def test_an_improvement_prints_nothing() -> None:
    out = run(doc(noisy(70, seed=2, step_at=50, step=0.15), "higher_is_better"))
    assert out.returncode == 0 and json.loads(out.stdout) == []


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("not json", "not JSON"),
        ('{"points": []}', "direction"),
        ('{"direction": "lower_is_better", "points": [5]}', "expected an object"),
        ('{"direction": "lower_is_better", "points": [{"value": "7"}]}', "finite number"),
        ('{"direction": "lower_is_better", "points": [{"value": 1, "samples": ["a"]}]}', "samples"),
        ('{"direction": "lower_is_better", "points": [{"value": 1, "samples": 3}]}', "samples"),
    ],
)
def test_bad_input_is_a_clear_error(stdin: str, message: str) -> None:
    with pytest.raises(ReplayError, match=message):
        read_series(stdin)


def test_bad_input_exits_2_with_the_reason() -> None:
    out = run("[1, 2]")
    assert out.returncode == 2 and "points" in out.stderr and out.stdout == ""


def test_jsonl_replays_many_series_in_one_call_in_order() -> None:
    step = json.loads(doc(noisy(70, seed=1, step_at=50, step=0.15)))
    flat = json.loads(doc(noisy(70, seed=3)))
    lines = []
    for i in range(12):
        series = dict(step if i % 2 == 0 else flat, id=f"s{i}")
        lines.append(json.dumps(series))
    lines.insert(5, "not a series")
    out = run("\n".join(lines) + "\n", "--jsonl")
    assert out.returncode == 2, "one line was not a series"
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert [a["id"] for a in answers] == [f"s{i}" for i in range(5)] + [6] + [
        f"s{i}" for i in range(5, 12)
    ]
    assert answers[5]["error"].startswith("line 6: stdin is not JSON")
    good = [a for a in answers if "alerts" in a]
    for a in good:
        stepped = int(a["id"][1:]) % 2 == 0
        assert [x["index"] for x in a["alerts"]] == ([50] if stepped else []), a
    # The same answers as one call per series.
    assert good[0]["alerts"] == json.loads(run(lines[0]).stdout)
