"""alerts: re-graded as runs arrive; the 'alert.regraded' event

An open step alert is graded again on the runs that arrive after its step (its size from every
run since, `regression.alerting.regrade`): `alert.graded_runs` says on how many runs after the
step its level and size rest, `alert.regraded_at` when they last moved (null: as opened). A
change of level (warn to fail, or back) notifies the alert's subscribers ('alert.regraded');
subscriptions that hear of confirmed regressions ('alert.opened') hear of it too. The
downgrade drops the columns, the event from subscriptions and its deliveries.

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-27 00:10:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_EVENTS = "'alert.opened','alert.resolved','alert.bisected','run.failed','test'"
NEW_EVENTS = "'alert.opened','alert.resolved','alert.bisected','alert.regraded','run.failed','test'"
EVENT_CHECK = "ck_notify_delivery_event_known"


def upgrade() -> None:
    op.add_column("alert", sa.Column("graded_runs", sa.Integer(), nullable=True))
    op.add_column("alert", sa.Column("regraded_at", sa.DateTime(timezone=True), nullable=True))
    op.drop_constraint(op.f(EVENT_CHECK), "notify_delivery", type_="check")
    op.create_check_constraint(op.f(EVENT_CHECK), "notify_delivery", f"event IN ({NEW_EVENTS})")
    op.execute(
        "UPDATE notify_subscription SET events = array_append(events, 'alert.regraded') "
        "WHERE 'alert.opened' = ANY(events) AND NOT 'alert.regraded' = ANY(events)"
    )


def downgrade() -> None:
    op.execute("DELETE FROM notify_delivery WHERE event = 'alert.regraded'")
    op.execute(
        "UPDATE notify_subscription SET events = array_remove(events, 'alert.regraded') "
        "WHERE 'alert.regraded' = ANY(events)"
    )
    op.execute("DELETE FROM notify_subscription WHERE cardinality(events) = 0")
    op.drop_constraint(op.f(EVENT_CHECK), "notify_delivery", type_="check")
    op.create_check_constraint(op.f(EVENT_CHECK), "notify_delivery", f"event IN ({OLD_EVENTS})")
    op.drop_column("alert", "regraded_at")
    op.drop_column("alert", "graded_runs")
