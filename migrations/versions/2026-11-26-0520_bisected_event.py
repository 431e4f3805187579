"""notifications: the 'alert.bisected' event; personal subscriptions

A bisection that names an alert's first bad commit notifies the alert's system's subscribers
('alert.bisected'). Subscriptions that hear of confirmed regressions ('alert.opened') get it
too, as the end of the story they were told. The downgrade removes the event from subscriptions
and deletes its deliveries.

`notify_subscription.owner` names who made a personal subscription (a signed-in user's
principal, "user:ann": an e-mail to their own address); they see and remove their own, admins
see all. The downgrade drops the column (personal subscriptions stay, as any other).

Revision ID: 0017
Revises: 0014
Create Date: 2026-11-26 05:20:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_EVENTS = "'alert.opened','alert.resolved','run.failed','test'"
NEW_EVENTS = "'alert.opened','alert.resolved','alert.bisected','run.failed','test'"
EVENT_CHECK = "ck_notify_delivery_event_known"  # the model's name (naming convention)
# 0012 named it in full under the convention, which prefixed it once more.
OLD_CHECK = "ck_notify_delivery_ck_notify_delivery_event_known"


def upgrade() -> None:
    op.drop_constraint(op.f(OLD_CHECK), "notify_delivery", type_="check")
    op.create_check_constraint(op.f(EVENT_CHECK), "notify_delivery", f"event IN ({NEW_EVENTS})")
    op.execute(
        "UPDATE notify_subscription SET events = array_append(events, 'alert.bisected') "
        "WHERE 'alert.opened' = ANY(events) AND NOT 'alert.bisected' = ANY(events)"
    )
    op.add_column("notify_subscription", sa.Column("owner", sa.String(120), nullable=True))
    op.create_index("ix_notify_subscription_owner", "notify_subscription", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_notify_subscription_owner", table_name="notify_subscription")
    op.drop_column("notify_subscription", "owner")
    op.execute("DELETE FROM notify_delivery WHERE event = 'alert.bisected'")
    op.execute(
        "UPDATE notify_subscription SET events = array_remove(events, 'alert.bisected') "
        "WHERE 'alert.bisected' = ANY(events)"
    )
    op.execute("DELETE FROM notify_subscription WHERE cardinality(events) = 0")
    op.drop_constraint(op.f(EVENT_CHECK), "notify_delivery", type_="check")
    op.create_check_constraint(op.f(OLD_CHECK), "notify_delivery", f"event IN ({OLD_EVENTS})")
