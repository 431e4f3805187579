"""The alert summary table: the alerts of one culprit range on one system and branch."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, DateTime, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from benchdash.alerts.states import AlertStatus, Resolution
from benchdash.db import Base, utcnow
from benchdash.kit.sql import sql_in


class AlertSummary(Base):
    """Alerts that share a culprit range (the same commits, or the same runs when a commit is
    unknown) on one system and branch, across benchmarks, metrics and testbeds, triaged as one.

    `range_key` names the range ("step:<good>..<bad>" by commits, "step-run:<good>..<bad>" by
    runs; "drift:…" for drifts): the unique key that concurrent uploads meet on
    (`INSERT … ON CONFLICT`). It resolves when all of its alerts are resolved.
    """

    __tablename__ = "alert_summary"
    __table_args__ = (
        CheckConstraint(f"status IN ({sql_in(AlertStatus)})", name="status_known"),
        CheckConstraint(
            f"resolution IS NULL OR resolution IN ({sql_in(Resolution)})", name="resolution_known"
        ),
        Index(
            "uq_alert_summary_active_range",
            "system_id",
            "branch_id",
            "range_key",
            unique=True,
            postgresql_where=text(f"status <> '{AlertStatus.RESOLVED}'"),
        ),
        Index("ix_alert_summary_system_opened", "system_id", "opened_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    system_id: Mapped[int] = mapped_column(ForeignKey("system.id", ondelete="CASCADE"))
    branch_id: Mapped[int] = mapped_column(ForeignKey("branch.id", ondelete="CASCADE"))
    range_key: Mapped[str] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(String(10))
    # The range: its first alert's first bad run and last good run, and their commits.
    first_bad_run_id: Mapped[int | None] = mapped_column(ForeignKey("run.id", ondelete="SET NULL"))
    last_good_run_id: Mapped[int | None] = mapped_column(ForeignKey("run.id", ondelete="SET NULL"))
    first_bad_commit: Mapped[str | None] = mapped_column(String(64))
    last_good_commit: Mapped[str | None] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(20), default=AlertStatus.OPEN)
    resolution: Mapped[str | None] = mapped_column(String(20))
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    resolved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    acknowledged_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    acknowledged_by: Mapped[str | None] = mapped_column(String(120))
    assignee: Mapped[str | None] = mapped_column(String(120))
    issue_url: Mapped[str | None] = mapped_column(Text)
    triaged_by: Mapped[str | None] = mapped_column(String(120))
    triaged_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
