"""runner_agent: each agent's last heartbeat, so the API knows which systems have one online

A run queued for a system with no live agent used to stay `queued` forever, silently. Agents now
say they are alive every few seconds (POST /api/v1/systems/{slug}/agents/heartbeat); the API
warns when a run is queued for a system with none, and fails such a run after
BENCHDASH_NO_AGENT_WAIT_S.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25 19:00:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "runner_agent",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("system_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("host", sa.String(200), nullable=True),
        sa.Column("first_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["system_id"],
            ["system.id"],
            ondelete="CASCADE",
            name="fk_runner_agent_system_id_system",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_runner_agent"),
        sa.UniqueConstraint("system_id", "name", name="uq_runner_agent_system_id"),
    )
    op.create_index("ix_runner_agent_system_seen", "runner_agent", ["system_id", "last_seen_at"])


def downgrade() -> None:
    op.drop_index("ix_runner_agent_system_seen", table_name="runner_agent")
    op.drop_table("runner_agent")
