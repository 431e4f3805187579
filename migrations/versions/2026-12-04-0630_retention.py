"""retention: rules per system and branch pattern for how long runs and their samples are kept

One row per rule, in the order they are tried (`position`): the first whose system (null: every
system) and branch glob match a run's decides it. `delete_after_days` deletes runs older than
that; `summarise_after_days` empties the raw samples of older runs' measurements (their summary
statistics stay); both null keeps the runs forever. No rule: nothing is deleted.

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-04 06:30:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "retention_rule",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("system_id", sa.Integer(), nullable=True),
        sa.Column("branch_pattern", sa.String(length=200), nullable=False),
        sa.Column("delete_after_days", sa.Integer(), nullable=True),
        sa.Column("summarise_after_days", sa.Integer(), nullable=True),
        sa.Column("updated_by", sa.String(length=200), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "delete_after_days IS NULL OR delete_after_days > 0",
            name=op.f("ck_retention_rule_delete_positive"),
        ),
        sa.CheckConstraint(
            "summarise_after_days IS NULL OR summarise_after_days > 0",
            name=op.f("ck_retention_rule_summarise_positive"),
        ),
        sa.ForeignKeyConstraint(
            ["system_id"],
            ["system.id"],
            name=op.f("fk_retention_rule_system_id_system"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_retention_rule")),
        sa.UniqueConstraint("position", name=op.f("uq_retention_rule_position")),
    )


def downgrade() -> None:
    op.drop_table("retention_rule")
