"""profile, alert.root_cause: profiles stored with runs, the root cause named on an alert
(issue 30)

A result entry may carry a profile (folded stacks of instructions or CPU time); it is stored
gzip-compressed, one per run, benchmark variant and kind. A step alert whose last good and
first bad runs both have a profile of its benchmark keeps their differential profile in
`alert.root_cause`. The downgrade drops both (the profiles are lost).

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-26 05:00:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _fk(column: str, target: str, ondelete: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], [f"{target}.id"], ondelete=ondelete, name=f"fk_profile_{column}_{target}"
    )


def upgrade() -> None:
    op.create_table(
        "profile",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("benchmark_id", sa.Integer(), nullable=False),
        sa.Column("metric_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("unit", sa.String(20), nullable=False),
        sa.Column("total", sa.BigInteger(), nullable=False),
        sa.Column("stacks_count", sa.Integer(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("kind IN ('instructions','cpu')", name="ck_profile_kind_known"),
        sa.CheckConstraint("total >= 0 AND stacks_count >= 0", name="ck_profile_counts"),
        _fk("run_id", "run", "CASCADE"),
        _fk("benchmark_id", "benchmark", "CASCADE"),
        _fk("metric_id", "metric", "SET NULL"),
        sa.PrimaryKeyConstraint("id", name="pk_profile"),
        sa.UniqueConstraint(
            "run_id", "benchmark_id", "kind", name="uq_profile_run_id_benchmark_id_kind"
        ),
    )
    op.create_index("ix_profile_benchmark_id", "profile", ["benchmark_id"])
    op.add_column("alert", sa.Column("root_cause", JSONB, nullable=True))


def downgrade() -> None:
    op.drop_column("alert", "root_cause")
    op.drop_index("ix_profile_benchmark_id", table_name="profile")
    op.drop_table("profile")
