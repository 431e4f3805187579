"""The alert table."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import CheckConstraint, DateTime, Float, ForeignKey, Index, Integer, String, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from benchdash.alerts.states import ALERT_LEVELS, AlertStatus
from benchdash.db import Base, utcnow
from benchdash.kit.sql import sql_in
from benchdash.regression.model import AlertKind


class Alert(Base):
    """A regression that needs a person: open → acknowledged → resolved."""

    __tablename__ = "alert"
    __table_args__ = (
        CheckConstraint(f"status IN ({sql_in(AlertStatus)})", name="status_known"),
        CheckConstraint(f"level IN ({sql_in(ALERT_LEVELS)})", name="level_known"),
        CheckConstraint(f"kind IN ({sql_in(AlertKind)})", name="kind_known"),
        Index(
            "uq_alert_active_series",
            "benchmark_id",
            "metric_id",
            "branch_id",
            "testbed_id",
            unique=True,
            postgresql_where=text(f"status <> '{AlertStatus.RESOLVED}'"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    system_id: Mapped[int] = mapped_column(ForeignKey("system.id", ondelete="CASCADE"))
    benchmark_id: Mapped[int] = mapped_column(ForeignKey("benchmark.id", ondelete="CASCADE"))
    metric_id: Mapped[int] = mapped_column(ForeignKey("metric.id", ondelete="CASCADE"))
    branch_id: Mapped[int] = mapped_column(ForeignKey("branch.id", ondelete="CASCADE"))
    testbed_id: Mapped[int] = mapped_column(ForeignKey("testbed.id", ondelete="CASCADE"))
    verdict_id: Mapped[int] = mapped_column(ForeignKey("verdict.id", ondelete="CASCADE"))
    # The step it names: its first bad run (and that run's verdict), the last good run before.
    run_id: Mapped[int] = mapped_column(ForeignKey("run.id", ondelete="CASCADE"))
    last_good_run_id: Mapped[int | None] = mapped_column(ForeignKey("run.id", ondelete="SET NULL"))
    level: Mapped[str] = mapped_column(String(10), default="fail")
    baseline_value: Mapped[float | None] = mapped_column(Float)  # the level before the step
    warn_floor: Mapped[float | None] = mapped_column(Float)  # the floor it crossed (%)
    change_pct: Mapped[float | None] = mapped_column(Float)  # the step, positive = worse
    p_value: Mapped[float | None] = mapped_column(Float)
    confirmed_by: Mapped[str | None] = mapped_column(String(20))
    # "step": run_id is the step's first bad run; "drift": the first run after the reference
    # level, and `drift` holds {"window_runs", "contributors": [{"run_id", "commit",
    # "change_pct"}]}.
    kind: Mapped[str] = mapped_column(String(10), default="step", server_default="step")
    drift: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    # A step's differential profile (profiles.schemas.RootCause), when both runs have one.
    root_cause: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    status: Mapped[str] = mapped_column(String(20), default="open")
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    acknowledged_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    acknowledged_by: Mapped[str | None] = mapped_column(String(120))
    resolved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    resolved_by_run_id: Mapped[int | None] = mapped_column(Integer)
    # Graded again as runs arrive after the step (migration 0021): on how many, and when the
    # level or size last moved (null: as opened).
    graded_runs: Mapped[int | None] = mapped_column(Integer)
    # The summary of its culprit range (migration 0024; null: opened before it).
    summary_id: Mapped[int | None] = mapped_column(
        ForeignKey("alert_summary.id", ondelete="SET NULL"), index=True
    )
    regraded_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
