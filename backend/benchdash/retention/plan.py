"""What the rules would remove now: the runs to delete, the runs whose samples go, and the runs
kept because something still names them. The dry run reports it; the job carries it out.

A run is never touched while an open (or acknowledged) alert names it — its first bad run, its
last good run, the runs of its baseline, a drift's contributors — nor when a bisection (of any
state) names it as an end, its range's listing or a step, nor when it is a branch's pinned
baseline or the run an accepted change restarts a baseline at. Only runs that have ended are
considered (a queued or running run is left to the reaper).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.alerts.states import AlertStatus
from benchdash.kit.arrays import typed_text
from benchdash.retention import rules as rule_store
from benchdash.runs.states import TERMINAL

# Every run something still needs (see the module's docstring); used by the plan and, again,
# by each batch of the job inside its own transaction.
PROTECTED = f"""
    SELECT a.run_id FROM alert a WHERE a.status <> '{AlertStatus.RESOLVED}'
    UNION SELECT a.last_good_run_id FROM alert a WHERE a.status <> '{AlertStatus.RESOLVED}'
    UNION SELECT unnest(v.baseline_run_ids) FROM alert a JOIN verdict v ON v.id = a.verdict_id
        WHERE a.status <> '{AlertStatus.RESOLVED}'
    UNION SELECT CAST(c ->> 'run_id' AS integer) FROM alert a,
        jsonb_array_elements(coalesce(a.drift -> 'contributors', '[]'::jsonb)) AS c
        WHERE a.status <> '{AlertStatus.RESOLVED}'
    UNION SELECT b.good_run_id FROM bisection b
    UNION SELECT b.bad_run_id FROM bisection b
    UNION SELECT b.revlist_run_id FROM bisection b
    UNION SELECT s.run_id FROM bisection_step s
    UNION SELECT br.pinned_run_id FROM branch br
    UNION SELECT sr.run_id FROM series_restart sr
"""
_ENDED = ", ".join(f"'{s}'" for s in TERMINAL)
# One row per run some rule reaches: whether it is to be deleted (else only summarised),
# whether it is kept, its measurements and those that still hold raw samples.
_CANDIDATES = typed_text(
    f"""WITH plan AS (
        SELECT branch_id, nullif(d, 0) AS del, nullif(s, 0) AS summ  -- 0: never
        FROM unnest(CAST(:branches AS int[]), CAST(:delete_days AS int[]),
                    CAST(:summarise_days AS int[])) AS u(branch_id, d, s)
    ), held AS ({PROTECTED}), reached AS (
        SELECT r.id, r.branch_id,
               p.del IS NOT NULL AND r.started_at < :now - make_interval(days => p.del) AS doomed,
               r.id IN (SELECT * FROM held WHERE run_id IS NOT NULL) AS kept
        FROM run r JOIN plan p ON p.branch_id = r.branch_id
        WHERE r.status IN ({_ENDED})
          AND (r.started_at < :now - make_interval(days => p.del)
               OR r.started_at < :now - make_interval(days => p.summ))
    )
    SELECT c.branch_id, c.id, c.doomed, c.kept, count(m.id) AS measurements,
           count(m.id) FILTER (WHERE cardinality(m.samples) > 0) AS sampled
    FROM reached c LEFT JOIN measurement m ON m.run_id = c.id
    GROUP BY c.branch_id, c.id, c.doomed, c.kept
    ORDER BY c.id"""
)
_BRANCHES = text(
    "SELECT b.id, b.system_id, s.slug, b.name FROM branch b JOIN system s ON s.id = b.system_id "
    "ORDER BY s.slug, b.name"
)
_RUNS = text("SELECT branch_id, count(*) FROM run GROUP BY branch_id")


@dataclass
class BranchWork:
    """One branch's share of the plan."""

    system: str
    branch: str
    rule: int | None
    runs: int
    delete: list[int] = field(default_factory=list)
    delete_measurements: int = 0
    summarise: list[int] = field(default_factory=list)
    summarise_measurements: int = 0
    kept: list[int] = field(default_factory=list)


@dataclass
class Plan:
    """Every branch's work, as of `at`."""

    at: datetime
    branches: list[BranchWork]

    @property
    def delete(self) -> list[int]:
        """Every run to delete, oldest id first."""
        return sorted(i for b in self.branches for i in b.delete)

    @property
    def summarise(self) -> list[int]:
        """Every run whose samples go, oldest id first."""
        return sorted(i for b in self.branches for i in b.summarise)


def make(*, session: Session, now: datetime) -> Plan:
    """What the stored rules would do at `now` (reads only)."""
    rules = rule_store.stored(session)
    counts = dict(session.execute(_RUNS).tuples().all())
    work: dict[int, BranchWork] = {}
    ids, dels, summs = [], [], []
    for branch_id, system_id, slug, name in session.execute(_BRANCHES).tuples():
        rule = rule_store.deciding(rules, system_id, name)
        work[branch_id] = BranchWork(
            slug, name, rule.position if rule else None, counts.get(branch_id, 0)
        )
        if rule and (rule.delete_after_days or rule.summarise_after_days):
            ids.append(branch_id)
            dels.append(rule.delete_after_days or 0)
            summs.append(rule.summarise_after_days or 0)
    if ids:
        binds = {"branches": ids, "delete_days": dels, "summarise_days": summs, "now": now}
        for branch_id, run_id, doomed, kept, measured, sampled in session.execute(
            _CANDIDATES, binds
        ).tuples():
            one = work[branch_id]
            if kept:
                if doomed or sampled:
                    one.kept.append(run_id)
            elif doomed:
                one.delete.append(run_id)
                one.delete_measurements += measured
            elif sampled:
                one.summarise.append(run_id)
                one.summarise_measurements += sampled
    return Plan(now, list(work.values()))
