"""Every id an upload needs, in one round trip: system, branch, testbed, metrics, benchmarks,
and series (the alerts of those series are read by the caller, a layer above).

Only the first upload of something new takes the slower path (`ensure`), which creates the
missing rows race-safely and resolves again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from benchdash.kit.arrays import typed_text

_RESOLVE = typed_text(
    """
    WITH sys AS (SELECT id FROM system WHERE slug = :system),
    br AS (SELECT id, name, base_branch, pinned_run_id FROM branch
           WHERE system_id = (SELECT id FROM sys) AND name = :branch),
    tb AS (SELECT id, name FROM testbed WHERE name = :testbed),
    mt AS (SELECT id, name, unit, direction, warn_threshold, fail_threshold, min_value,
                  max_value FROM metric
           WHERE system_id = (SELECT id FROM sys) AND name = ANY(CAST(:metrics AS text[]))),
    bm AS (SELECT b.id, b.name, b.params_key, b.parameters FROM benchmark b
           JOIN unnest(CAST(:bnames AS text[]), CAST(:bkeys AS text[])) AS k(n, p)
             ON b.name = k.n AND b.params_key = k.p
           WHERE b.system_id = (SELECT id FROM sys)),
    se AS (SELECT s.id, s.benchmark_id, s.metric_id FROM series s
           WHERE s.branch_id = (SELECT id FROM br) AND s.testbed_id = (SELECT id FROM tb)
             AND s.benchmark_id IN (SELECT id FROM bm) AND s.metric_id IN (SELECT id FROM mt))
    SELECT (SELECT id FROM sys),
           (SELECT json_build_array(id, name, base_branch, pinned_run_id) FROM br),
           (SELECT json_build_array(id, name) FROM tb),
           (SELECT json_agg(json_build_array(id, name, unit, direction, warn_threshold,
                                             fail_threshold, min_value, max_value)) FROM mt),
           (SELECT json_agg(json_build_array(id, name, params_key, parameters)) FROM bm),
           (SELECT json_agg(json_build_array(id, benchmark_id, metric_id)) FROM se)
    """
)


@dataclass(frozen=True)
class BranchRow:
    """A branch as ingest needs it."""

    id: int
    name: str
    base_branch: str | None
    pinned_run_id: int | None


@dataclass(frozen=True)
class MetricRow:
    """A metric with its unit, direction and thresholds (percent)."""

    id: int
    name: str
    unit: str
    direction: str
    warn_threshold: float
    fail_threshold: float
    min_value: float | None = None
    max_value: float | None = None


@dataclass(frozen=True)
class BenchmarkRow:
    """A benchmark variant."""

    id: int
    name: str
    params_key: str
    parameters: dict[str, Any]


@dataclass(frozen=True)
class Resolved:
    """What one resolve query found; `complete` when nothing the document names is missing."""

    system_id: int | None
    branch: BranchRow | None
    testbed: tuple[int, str] | None
    metrics: dict[str, MetricRow]
    benchmarks: dict[tuple[str, str], BenchmarkRow]
    series: dict[tuple[int, int], int]

    def complete(self, pairs: Sequence[tuple[tuple[str, str], str]]) -> bool:
        """Whether the system, branch, testbed and every (variant, metric) series exist."""
        if self.system_id is None or self.branch is None or self.testbed is None:
            return False
        for variant, metric in pairs:
            b, m = self.benchmarks.get(variant), self.metrics.get(metric)
            if b is None or m is None or (b.id, m.id) not in self.series:
                return False
        return True


def resolve(
    *,
    session: Session,
    system: str,
    branch: str,
    testbed: str,
    metrics: Sequence[str],
    variants: Sequence[tuple[str, str]],
) -> Resolved:
    """Look every id up in one statement (nothing is created)."""
    row = session.execute(
        _RESOLVE,
        {
            "system": system,
            "branch": branch,
            "testbed": testbed,
            "metrics": list(metrics),
            "bnames": [n for n, _ in variants],
            "bkeys": [k for _, k in variants],
        },
    ).one()
    sys_id, br, tb, mts, bms, ses = row
    return Resolved(
        system_id=sys_id,
        branch=BranchRow(*br) if br else None,
        testbed=(tb[0], tb[1]) if tb else None,
        metrics={m[1]: MetricRow(*m) for m in mts or []},
        benchmarks={(b[1], b[2]): BenchmarkRow(*b) for b in bms or []},
        series={(s[1], s[2]): s[0] for s in ses or []},
    )
