"""measurement partitioned by month on started_at (PostgreSQL declarative RANGE partitioning)

A new partitioned `measurement` takes the rows of the plain one (INSERT … SELECT), then the
names are swapped. Partitions: one `measurement_yYYYYmMM` per month with data and for this
month and the next three (the app keeps creating months ahead: results/partitions.py), and
`measurement_default` for what no month holds, so no insert fails.

Keys must hold the partition key: the primary key becomes (id, started_at) and the unique
(run_id, benchmark_id, metric_id) gains started_at (a run's measurements share its start, so
it allows what it allowed). `verdict` gets `started_at` (its measurement's) and references
measurement (id, started_at) — PostgreSQL allows foreign keys to a partitioned table only
through one of its unique keys. Columns, CHECKs, other foreign keys and plain indexes are
copied from the table as found (so a column added by a sibling migration comes along).

The downgrade carries the rows back into a plain table with the old keys.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-26 05:10:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

AHEAD_MONTHS = 3
_PK = "pk_measurement"
_UQ_OLD = "uq_measurement_run_id_benchmark_id_metric_id"
_UQ_NEW = "uq_measurement_run_id_benchmark_id_metric_id_started_at"
_FK_VERDICT = "fk_verdict_measurement_id_measurement"


def _carried(table: str) -> tuple[list[str], list[str]]:
    """The foreign keys (ADD CONSTRAINT clauses) and plain index definitions of `table`,
    with the table's name left as {table} to fill in."""
    bind = op.get_bind()
    fks = bind.execute(
        sa.text(
            "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE conrelid = CAST(:t AS regclass) AND contype = 'f' ORDER BY conname"
        ),
        {"t": table},
    ).all()
    indexes = bind.execute(
        sa.text(
            "SELECT i.indexname, i.indexdef FROM pg_indexes i WHERE i.tablename = :t "
            "AND i.schemaname = current_schema() AND NOT EXISTS (SELECT 1 FROM pg_constraint c "
            "WHERE c.conname = i.indexname AND c.conrelid = CAST(:t AS regclass)) "
            "ORDER BY i.indexname"
        ),
        {"t": table},
    ).all()
    # Index definitions name the table as "ON [ONLY] schema.table USING": rebuilt on the parent.
    plain = [
        d.replace(f" ON ONLY public.{table} ", " ON {table} ").replace(
            f" ON public.{table} ", " ON {table} "
        )
        for _, d in indexes
    ]
    return [f'ADD CONSTRAINT "{n}" {d}' for n, d in fks], plain


def _swap(old: str, partitioned: bool) -> None:
    """Copy `measurement` (renamed `old`) into a new `measurement`, drop the old one."""
    fks, indexes = _carried("measurement")
    op.execute(f"ALTER TABLE measurement RENAME TO {old}")
    by = " PARTITION BY RANGE (started_at)" if partitioned else ""
    op.execute(
        f"CREATE TABLE measurement (LIKE {old} INCLUDING DEFAULTS INCLUDING CONSTRAINTS "
        f"INCLUDING STORAGE){by}"
    )
    if partitioned:
        _partitions(old)
    op.execute(f"INSERT INTO measurement SELECT * FROM {old}")
    op.execute("ALTER SEQUENCE measurement_id_seq OWNED BY measurement.id")
    op.execute(f"DROP TABLE {old} CASCADE")
    key = "id, started_at" if partitioned else "id"
    unique = (_UQ_NEW, ", started_at") if partitioned else (_UQ_OLD, "")
    op.execute(f"ALTER TABLE measurement ADD CONSTRAINT {_PK} PRIMARY KEY ({key})")
    op.execute(
        f"ALTER TABLE measurement ADD CONSTRAINT {unique[0]} "
        f"UNIQUE (run_id, benchmark_id, metric_id{unique[1]})"
    )
    for index in indexes:
        op.execute(index.format(table="measurement"))
    if fks:
        op.execute("ALTER TABLE measurement " + ", ".join(fks))


def _partitions(old: str) -> None:
    """One per month with rows and for this month and the next ones, and `default`."""
    months = (
        op.get_bind()
        .execute(
            sa.text(
                f"SELECT DISTINCT date_trunc('month', started_at AT TIME ZONE 'UTC') FROM {old} "
                "UNION SELECT date_trunc('month', now() AT TIME ZONE 'UTC') "
                "+ make_interval(months => g) "
                "FROM generate_series(0, :ahead) g ORDER BY 1"
            ),
            {"ahead": AHEAD_MONTHS},
        )
        .scalars()
        .all()
    )
    for start in months:
        y, m = start.year, start.month
        end = f"{y + m // 12:04d}-{m % 12 + 1:02d}-01 00:00+00"
        op.execute(
            f"CREATE TABLE measurement_y{y:04d}m{m:02d} PARTITION OF measurement "
            f"FOR VALUES FROM ('{y:04d}-{m:02d}-01 00:00+00') TO ('{end}')"
        )
    op.execute("CREATE TABLE measurement_default PARTITION OF measurement DEFAULT")


def upgrade() -> None:
    op.add_column("verdict", sa.Column("started_at", sa.DateTime(timezone=True), nullable=True))
    op.execute(
        "UPDATE verdict v SET started_at = m.started_at FROM measurement m "
        "WHERE m.id = v.measurement_id"
    )
    op.alter_column("verdict", "started_at", nullable=False)
    op.drop_constraint(_FK_VERDICT, "verdict", type_="foreignkey")
    _swap("measurement_plain", partitioned=True)
    op.execute(
        f"ALTER TABLE verdict ADD CONSTRAINT {_FK_VERDICT} FOREIGN KEY (measurement_id, "
        "started_at) REFERENCES measurement (id, started_at) ON DELETE CASCADE ON UPDATE CASCADE"
    )
    op.execute("ANALYZE measurement")


def downgrade() -> None:
    op.drop_constraint(_FK_VERDICT, "verdict", type_="foreignkey")
    _swap("measurement_partitioned", partitioned=False)
    op.create_foreign_key(
        _FK_VERDICT, "verdict", "measurement", ["measurement_id"], ["id"], ondelete="CASCADE"
    )
    op.drop_column("verdict", "started_at")
    op.execute("ANALYZE measurement")
