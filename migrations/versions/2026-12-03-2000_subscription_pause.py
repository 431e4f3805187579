"""notify: a subscription that keeps failing is paused, with the reason in words

`consecutive_failures` counts the subscription's deliveries that ended `failed` since its last
success; at BENCHDASH_NOTIFY_PAUSE_AFTER the subscription is paused (`paused_at`,
`paused_reason`): nothing more is queued for it until someone resumes it.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-03 20:00:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "notify_subscription",
        sa.Column("consecutive_failures", sa.Integer(), nullable=False, server_default="0"),
    )
    op.add_column(
        "notify_subscription", sa.Column("paused_at", sa.DateTime(timezone=True), nullable=True)
    )
    op.add_column("notify_subscription", sa.Column("paused_reason", sa.Text(), nullable=True))
    op.create_check_constraint(
        op.f("ck_notify_subscription_paused_has_reason"),
        "notify_subscription",
        "(paused_at IS NULL) = (paused_reason IS NULL)",
    )


def downgrade() -> None:
    op.drop_constraint(
        op.f("ck_notify_subscription_paused_has_reason"), "notify_subscription", type_="check"
    )
    op.drop_column("notify_subscription", "paused_reason")
    op.drop_column("notify_subscription", "paused_at")
    op.drop_column("notify_subscription", "consecutive_failures")
