"""job queue and run progress

Adds the procrastinate job-queue schema (from the pinned procrastinate version; a later
procrastinate upgrade needs its own migration applying procrastinate's migration files),
the columns of queued runs (ref, heartbeat, cancel flag, progress) and the run_event table
that the server-sent event stream reads.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 02:26:10.392582+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


DROP_PROCRASTINATE = """
DROP TABLE IF EXISTS procrastinate_periodic_defers, procrastinate_events, procrastinate_jobs,
    procrastinate_workers CASCADE;
DO $$
DECLARE f record;
BEGIN
    FOR f IN SELECT p.oid::regprocedure AS sig FROM pg_proc p
             JOIN pg_namespace n ON n.oid = p.pronamespace
             WHERE n.nspname = current_schema() AND p.proname LIKE 'procrastinate%'
    LOOP
        EXECUTE 'DROP FUNCTION IF EXISTS ' || f.sig || ' CASCADE';
    END LOOP;
END $$;
DROP TYPE IF EXISTS procrastinate_job_to_defer_v1, procrastinate_job_status,
    procrastinate_job_event_type CASCADE;
"""


def upgrade() -> None:
    from procrastinate.schema import SchemaManager

    op.get_bind().exec_driver_sql(SchemaManager.get_schema().replace("%", "%%"))
    op.create_table(
        "run_event",
        sa.Column("id", sa.BigInteger(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("data", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.CheckConstraint(
            "kind IN ('state','progress','log')", name=op.f("ck_run_event_kind_known")
        ),
        sa.ForeignKeyConstraint(
            ["run_id"], ["run.id"], name=op.f("fk_run_event_run_id_run"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_run_event")),
    )
    op.create_index("ix_run_event_run_id_id", "run_event", ["run_id", "id"], unique=False)
    op.add_column("run", sa.Column("ref", sa.String(length=200), nullable=True))
    op.add_column(
        "run", sa.Column("requested_benchmarks", sa.ARRAY(sa.String(length=300)), nullable=True)
    )
    op.add_column("run", sa.Column("job_id", sa.BigInteger(), nullable=True))
    op.add_column("run", sa.Column("agent", sa.String(length=200), nullable=True))
    op.add_column("run", sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column(
        "run",
        sa.Column("cancel_requested", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column(
        "run", sa.Column("progress", postgresql.JSONB(astext_type=sa.Text()), nullable=True)
    )


def downgrade() -> None:
    op.drop_column("run", "progress")
    op.drop_column("run", "cancel_requested")
    op.drop_column("run", "heartbeat_at")
    op.drop_column("run", "agent")
    op.drop_column("run", "job_id")
    op.drop_column("run", "requested_benchmarks")
    op.drop_column("run", "ref")
    op.drop_index("ix_run_event_run_id_id", table_name="run_event")
    op.drop_table("run_event")
    op.get_bind().exec_driver_sql(DROP_PROCRASTINATE.replace("%", "%%"))
