"""series keys, server-side sessions, audit log, re-runs

- `series`: one row per (benchmark, metric, branch, testbed); each measurement carries its
  `series_id` and its run's `started_at`, so a series' history is one index range scan on
  (series_id, started_at, run_id). Existing measurements are carried over.
- `user_session`: sessions live on the server, so logout and a password change end them.
- `audit_event`: who changed thresholds (and other settings), when, from what to what.
- `run.rerun_of`: re-runs queued to confirm a suspected regression.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 13:00:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BACKFILL_SERIES = """
INSERT INTO series (system_id, benchmark_id, metric_id, branch_id, testbed_id)
SELECT DISTINCT r.system_id, m.benchmark_id, m.metric_id, r.branch_id, r.testbed_id
FROM measurement m JOIN run r ON r.id = m.run_id
WHERE r.testbed_id IS NOT NULL
"""
BACKFILL_MEASUREMENT = """
UPDATE measurement m SET series_id = s.id, started_at = r.started_at
FROM run r, series s
WHERE r.id = m.run_id AND s.benchmark_id = m.benchmark_id AND s.metric_id = m.metric_id
  AND s.branch_id = r.branch_id AND s.testbed_id = r.testbed_id
"""


def upgrade() -> None:
    op.create_table(
        "series",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("system_id", sa.Integer(), nullable=False),
        sa.Column("benchmark_id", sa.Integer(), nullable=False),
        sa.Column("metric_id", sa.Integer(), nullable=False),
        sa.Column("branch_id", sa.Integer(), nullable=False),
        sa.Column("testbed_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["system_id"], ["system.id"], ondelete="CASCADE", name="fk_series_system_id_system"
        ),
        sa.ForeignKeyConstraint(
            ["benchmark_id"],
            ["benchmark.id"],
            ondelete="CASCADE",
            name="fk_series_benchmark_id_benchmark",
        ),
        sa.ForeignKeyConstraint(
            ["metric_id"], ["metric.id"], ondelete="CASCADE", name="fk_series_metric_id_metric"
        ),
        sa.ForeignKeyConstraint(
            ["branch_id"], ["branch.id"], ondelete="CASCADE", name="fk_series_branch_id_branch"
        ),
        sa.ForeignKeyConstraint(
            ["testbed_id"], ["testbed.id"], ondelete="CASCADE", name="fk_series_testbed_id_testbed"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_series"),
        sa.UniqueConstraint(
            "benchmark_id", "metric_id", "branch_id", "testbed_id", name="uq_series_benchmark_id"
        ),
    )
    op.add_column("measurement", sa.Column("series_id", sa.Integer(), nullable=True))
    op.add_column("measurement", sa.Column("started_at", sa.DateTime(timezone=True), nullable=True))
    op.execute(BACKFILL_SERIES)
    op.execute(BACKFILL_MEASUREMENT)
    op.alter_column("measurement", "series_id", nullable=False)
    op.alter_column("measurement", "started_at", nullable=False)
    op.create_foreign_key(
        "fk_measurement_series_id_series",
        "measurement",
        "series",
        ["series_id"],
        ["id"],
        ondelete="CASCADE",
    )
    op.create_index(
        "ix_measurement_series_time", "measurement", ["series_id", "started_at", "run_id"]
    )

    op.create_table(
        "user_session",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["app_user.id"],
            ondelete="CASCADE",
            name="fk_user_session_user_id_app_user",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_user_session"),
        sa.UniqueConstraint("token_hash", name="uq_user_session_token_hash"),
    )
    op.create_index("ix_user_session_user_id", "user_session", ["user_id"])

    op.create_table(
        "audit_event",
        sa.Column("id", sa.BigInteger(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(200), nullable=False),
        sa.Column("action", sa.String(60), nullable=False),
        sa.Column("target", sa.Text(), nullable=False),
        sa.Column("detail", postgresql.JSONB(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_audit_event"),
    )

    op.add_column("run", sa.Column("rerun_of", sa.Integer(), nullable=True))
    op.create_foreign_key(
        "fk_run_rerun_of_run", "run", "run", ["rerun_of"], ["id"], ondelete="SET NULL"
    )


def downgrade() -> None:
    op.drop_constraint("fk_run_rerun_of_run", "run", type_="foreignkey")
    op.drop_column("run", "rerun_of")
    op.drop_table("audit_event")
    op.drop_index("ix_user_session_user_id", table_name="user_session")
    op.drop_table("user_session")
    op.drop_index("ix_measurement_series_time", table_name="measurement")
    op.drop_constraint("fk_measurement_series_id_series", "measurement", type_="foreignkey")
    op.drop_column("measurement", "started_at")
    op.drop_column("measurement", "series_id")
    op.drop_table("series")
