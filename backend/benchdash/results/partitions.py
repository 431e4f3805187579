"""Monthly partitions of `measurement`, created ahead of the rows that will need them.

`measurement` is partitioned by RANGE on `started_at` (migration 0018): one partition a month,
named `measurement_yYYYYmMM`, and `measurement_default` for rows no month holds, so an insert
never fails. `ensure` creates this month and the next `ahead` ones (at start, `startup`, and
hourly, `app`); any API process may run it at once with another: an advisory lock serialises
them and an existing month is left alone. A month whose rows already sit in the default
partition is not created (PostgreSQL would refuse): its rows stay where they are, still read.

Retention is a partition at a time: delete the month's verdicts, then
`ALTER TABLE measurement DETACH PARTITION measurement_y2024m01` and drop (or archive) it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from benchdash.kit.arrays import typed_text

log = logging.getLogger("benchdash")

AHEAD_MONTHS = 3
_LOCK_KEY = 0x6D65_6173  # "meas": one maintainer of the partitions at a time
_MISSING = typed_text(
    "SELECT n FROM unnest(CAST(:names AS text[])) AS n WHERE to_regclass(n) IS NULL"
)
_LOCK_TIMEOUT = text("SELECT set_config('lock_timeout', :v, true)")
_IN_DEFAULT = text(
    "SELECT EXISTS (SELECT 1 FROM measurement_default WHERE started_at >= :lo AND started_at < :hi)"
)


@dataclass(frozen=True, order=True)
class Month:
    """One calendar month (UTC) and its partition."""

    year: int
    month: int

    @classmethod
    def of(cls, when: datetime) -> Month:
        """The month `when` falls in, in UTC."""
        utc = when.astimezone(UTC)
        return cls(utc.year, utc.month)

    def plus(self, months: int) -> Month:
        """The month `months` later."""
        index = self.year * 12 + self.month - 1 + months
        return Month(index // 12, index % 12 + 1)

    @property
    def name(self) -> str:
        """Its partition's table name."""
        return f"measurement_y{self.year:04d}m{self.month:02d}"

    @property
    def start(self) -> datetime:
        """Its first instant (inclusive bound)."""
        return datetime(self.year, self.month, 1, tzinfo=UTC)


def ensure(
    *,
    session: Session,
    now: datetime,
    ahead: int = AHEAD_MONTHS,
    first: datetime | None = None,
    lock_timeout_ms: int = 500,
) -> list[str]:
    """Create the missing partitions from `first`'s month (default: `now`'s) to `ahead`
    months after `now`'s; returns the names created. The caller commits.

    Creating a partition locks `measurement` and the tables its foreign keys name (run,
    series, ...) against writes: an upload in flight holds it back, and while it waits every
    new upload would queue behind it. So it waits `lock_timeout_ms` at most, and a month not
    made now is made at the next call (months are made `ahead` of their rows).
    """
    lo, hi = Month.of(first or now), Month.of(now).plus(ahead)
    wanted = [lo.plus(i) for i in range((hi.year - lo.year) * 12 + hi.month - lo.month + 1)]
    by_name = {m.name: m for m in wanted}
    if not session.scalars(_MISSING, {"names": list(by_name)}).first():
        return []  # the usual case: no lock, no DDL
    session.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _LOCK_KEY})
    created = []
    saved = session.scalar(text("SELECT current_setting('lock_timeout')"))
    session.execute(_LOCK_TIMEOUT, {"v": f"{lock_timeout_ms}ms"})
    for name in session.scalars(_MISSING, {"names": list(by_name)}).all():
        month = by_name[name]
        bounds = {"lo": month.start, "hi": month.plus(1).start}
        if session.scalar(_IN_DEFAULT, bounds):
            log.warning("partition %s not created: the default partition holds its rows", name)
            continue
        try:
            with session.begin_nested():
                session.execute(
                    text(
                        f"CREATE TABLE IF NOT EXISTS {name} PARTITION OF measurement "
                        f"FOR VALUES FROM ('{month.start.isoformat()}') "
                        f"TO ('{month.plus(1).start.isoformat()}')"
                    )
                )
        except DBAPIError as e:  # e.g. lock_timeout behind a long read: next time
            log.warning("partition %s not created: %s", name, str(e.orig).strip())
            continue
        created.append(name)
    session.execute(_LOCK_TIMEOUT, {"v": saved})
    if created:
        log.info("created partitions %s", ", ".join(created))
    return created
