"""The CV the systems' cv.py scripts print."""

from __future__ import annotations

import pytest

from benchdash_runner import variation


def test_cv_is_stdev_over_mean_in_percent() -> None:
    assert variation.cv([10.0, 10.0, 10.0]) == 0.0
    assert variation.cv([5.0]) == 0.0
    assert variation.cv([9.0, 11.0]) == pytest.approx(100 * 1.4142135623730951 / 10)


def test_the_table_has_a_mean_and_cv_per_column(capsys: pytest.CaptureFixture[str]) -> None:
    table = {"get": {"ir": [100.0, 100.0], "qps": [90.0, 110.0]}}
    variation.print_table(table, [("ir", "instr", "{:.0f}"), ("qps", "req/s", "{:.0f}")], 2)
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| `get`")]
    assert rows == ["| `get` | 100 | 0.0000 % | 100 | 14.1421 % |"]
