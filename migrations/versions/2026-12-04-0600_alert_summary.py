"""alerts: summaries of one culprit range; the 'alert.updated' event

`alert_summary` holds the alerts that share a culprit range on one system and branch (across
benchmarks, metrics and testbeds) with their triage (acknowledged, assignee, issue URL,
resolution accepted/invalid); `alert.summary_id` names each alert's. Concurrent uploads meet
on the unique active range (`uq_alert_summary_active_range`). `notify_delivery.summary_id`
lets a pending delivery take later news of its summary (one notification, not one per
alert); `bisection.summary_id` gives a summary one bisection. Subscriptions that hear of
opened alerts also hear 'alert.updated' (more series joined a summary). Existing alerts are
left without a summary. The downgrade drops all of it and the event's deliveries.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-04 06:00:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_EVENTS = "'alert.opened','alert.resolved','alert.bisected','alert.regraded','run.failed','test'"
NEW_EVENTS = (
    "'alert.opened','alert.updated','alert.resolved','alert.bisected','alert.regraded',"
    "'run.failed','test'"
)
EVENT_CHECK = "ck_notify_delivery_event_known"


def upgrade() -> None:
    op.create_table(
        "alert_summary",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "system_id",
            sa.Integer(),
            sa.ForeignKey("system.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "branch_id",
            sa.Integer(),
            sa.ForeignKey("branch.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("range_key", sa.Text(), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("first_bad_run_id", sa.Integer(), sa.ForeignKey("run.id", ondelete="SET NULL")),
        sa.Column("last_good_run_id", sa.Integer(), sa.ForeignKey("run.id", ondelete="SET NULL")),
        sa.Column("first_bad_commit", sa.String(64)),
        sa.Column("last_good_commit", sa.String(64)),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("resolution", sa.String(20)),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True)),
        sa.Column("acknowledged_at", sa.DateTime(timezone=True)),
        sa.Column("acknowledged_by", sa.String(120)),
        sa.Column("assignee", sa.String(120)),
        sa.Column("issue_url", sa.Text()),
        sa.Column("triaged_by", sa.String(120)),
        sa.Column("triaged_at", sa.DateTime(timezone=True)),
        sa.CheckConstraint(
            "status IN ('open', 'acknowledged', 'resolved')",
            name=op.f("ck_alert_summary_status_known"),
        ),
        sa.CheckConstraint(
            "resolution IS NULL OR resolution IN ('accepted', 'invalid')",
            name=op.f("ck_alert_summary_resolution_known"),
        ),
    )
    op.create_index(
        "uq_alert_summary_active_range",
        "alert_summary",
        ["system_id", "branch_id", "range_key"],
        unique=True,
        postgresql_where=sa.text("status <> 'resolved'"),
    )
    op.create_index("ix_alert_summary_system_opened", "alert_summary", ["system_id", "opened_at"])
    op.add_column(
        "alert",
        sa.Column(
            "summary_id", sa.Integer(), sa.ForeignKey("alert_summary.id", ondelete="SET NULL")
        ),
    )
    op.create_index("ix_alert_summary_id", "alert", ["summary_id"])
    op.add_column("notify_delivery", sa.Column("summary_id", sa.Integer()))
    op.create_index("ix_notify_delivery_summary_id", "notify_delivery", ["summary_id"])
    op.add_column(
        "bisection",
        sa.Column(
            "summary_id", sa.Integer(), sa.ForeignKey("alert_summary.id", ondelete="SET NULL")
        ),
    )
    op.create_index(
        "uq_bisection_running_summary",
        "bisection",
        ["summary_id"],
        unique=True,
        postgresql_where=sa.text("state = 'running'"),
    )
    op.drop_constraint(op.f(EVENT_CHECK), "notify_delivery", type_="check")
    op.create_check_constraint(op.f(EVENT_CHECK), "notify_delivery", f"event IN ({NEW_EVENTS})")
    op.execute(
        "UPDATE notify_subscription SET events = array_append(events, 'alert.updated') "
        "WHERE 'alert.opened' = ANY(events) AND NOT 'alert.updated' = ANY(events)"
    )


def downgrade() -> None:
    op.execute("DELETE FROM notify_delivery WHERE event = 'alert.updated'")
    op.execute(
        "UPDATE notify_subscription SET events = array_remove(events, 'alert.updated') "
        "WHERE 'alert.updated' = ANY(events)"
    )
    op.execute("DELETE FROM notify_subscription WHERE cardinality(events) = 0")
    op.drop_constraint(op.f(EVENT_CHECK), "notify_delivery", type_="check")
    op.create_check_constraint(op.f(EVENT_CHECK), "notify_delivery", f"event IN ({OLD_EVENTS})")
    op.drop_index("uq_bisection_running_summary", table_name="bisection")
    op.drop_column("bisection", "summary_id")
    op.drop_index("ix_notify_delivery_summary_id", table_name="notify_delivery")
    op.drop_column("notify_delivery", "summary_id")
    op.drop_index("ix_alert_summary_id", table_name="alert")
    op.drop_column("alert", "summary_id")
    op.drop_table("alert_summary")
