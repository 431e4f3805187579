"""Run-to-run variation of repeated runs, for the systems' `cv.py` scripts (figures in READMEs)."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence

# (metric name, column title, number format) of one column pair: the mean and its CV
Column = tuple[str, str, str]


def cv(values: Sequence[float]) -> float:
    """Coefficient of variation in percent (0 for identical values or a single one)."""
    return 100 * statistics.stdev(values) / statistics.mean(values) if len(values) > 1 else 0.0


def print_table(
    table: Mapping[str, Mapping[str, Sequence[float]]], columns: Sequence[Column], runs: int
) -> None:
    """A Markdown table: per scenario, each column's mean over the runs beside its CV."""
    print(f"\n{runs} runs; CV = stdev / mean of the per-run figures\n")
    print("| scenario | " + " | ".join(f"{title} | CV" for _, title, _ in columns) + " |")
    print("|---|" + "---:|---:|" * len(columns))
    for name, row in table.items():
        cells = [
            f"{fmt.format(statistics.mean(row[k]))} | {cv(row[k]):.4f} %" for k, _, fmt in columns
        ]
        print(f"| `{name}` | " + " | ".join(cells) + " |")
