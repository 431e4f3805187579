"""notifications: subscriptions and the delivery outbox

A confirmed regression, its recovery and a failed run are written to `notify_delivery` (one row
per subscription) in the transaction of the alert or run change, with a procrastinate job on
queue `notify` that delivers it (webhook signed with HMAC-SHA256, Slack, e-mail).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26 02:20:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STATUSES = "'pending','sending','retrying','delivered','failed'"
EVENTS = "'alert.opened','alert.resolved','run.failed','test'"


def upgrade() -> None:
    op.create_table(
        "notify_subscription",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("system_id", sa.Integer(), nullable=False),
        sa.Column("branch", sa.String(200), nullable=True),
        sa.Column("channel", sa.String(10), nullable=False),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("target", sa.Text(), nullable=False),
        sa.Column("secret", sa.Text(), nullable=True),
        sa.Column("events", postgresql.ARRAY(sa.String(20)), nullable=False),
        sa.Column("created_by", sa.String(120), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "channel IN ('webhook','slack','email')",
            name="ck_notify_subscription_channel_known",
        ),
        sa.ForeignKeyConstraint(
            ["system_id"],
            ["system.id"],
            ondelete="CASCADE",
            name="fk_notify_subscription_system_id_system",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_notify_subscription"),
    )
    op.create_table(
        "notify_delivery",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("subscription_id", sa.Integer(), nullable=False),
        sa.Column("event", sa.String(20), nullable=False),
        sa.Column("payload", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("job_id", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(f"status IN ({STATUSES})", name="ck_notify_delivery_status_known"),
        sa.CheckConstraint(f"event IN ({EVENTS})", name="ck_notify_delivery_event_known"),
        sa.ForeignKeyConstraint(
            ["subscription_id"],
            ["notify_subscription.id"],
            ondelete="CASCADE",
            name="fk_notify_delivery_subscription_id_notify_subscription",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_notify_delivery"),
    )
    op.create_index(
        "ix_notify_delivery_subscription_created",
        "notify_delivery",
        ["subscription_id", "created_at"],
    )


def downgrade() -> None:
    op.drop_index("ix_notify_delivery_subscription_created", table_name="notify_delivery")
    op.drop_table("notify_delivery")
    op.drop_table("notify_subscription")
