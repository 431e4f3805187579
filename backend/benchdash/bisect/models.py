"""The bisection tables: one bisection per (alert or pair of runs), its steps."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from benchdash.bisect.states import BisectState, Verdict
from benchdash.db import Base, utcnow
from benchdash.kit.sql import sql_in


class Bisection(Base):
    """A search for the first bad commit of `good_commit..bad_commit` for one benchmark's metric.

    `commits` is the repository's own list of the range, oldest first, as an agent reported it
    (`git rev-list --reverse [--first-parent] good..bad`): each {sha, subject, author}. Until it
    arrives, `revlist_run_id` is the run that asks an agent for it.
    """

    __tablename__ = "bisection"
    __table_args__ = (
        CheckConstraint(f"state IN ({sql_in(BisectState)})", name="state_known"),
        Index("ix_bisection_alert_id", "alert_id"),
        Index(
            "uq_bisection_running_alert",
            "alert_id",
            unique=True,
            postgresql_where=text(f"state = '{BisectState.RUNNING}'"),
        ),
        Index(
            "uq_bisection_running_summary",
            "summary_id",
            unique=True,
            postgresql_where=text(f"state = '{BisectState.RUNNING}'"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    system_id: Mapped[int] = mapped_column(ForeignKey("system.id", ondelete="CASCADE"))
    alert_id: Mapped[int | None] = mapped_column(ForeignKey("alert.id", ondelete="CASCADE"))
    # The alert summary it bisects for (migration 0024): one bisection serves all its alerts.
    summary_id: Mapped[int | None] = mapped_column(
        ForeignKey("alert_summary.id", ondelete="SET NULL")
    )
    benchmark_id: Mapped[int] = mapped_column(ForeignKey("benchmark.id", ondelete="CASCADE"))
    metric_id: Mapped[int] = mapped_column(ForeignKey("metric.id", ondelete="CASCADE"))
    good_run_id: Mapped[int | None] = mapped_column(ForeignKey("run.id", ondelete="SET NULL"))
    bad_run_id: Mapped[int | None] = mapped_column(ForeignKey("run.id", ondelete="SET NULL"))
    good_commit: Mapped[str] = mapped_column(String(64))
    bad_commit: Mapped[str] = mapped_column(String(64))
    branch: Mapped[str] = mapped_column(String(200))
    profile: Mapped[str] = mapped_column(String(40))
    first_parent: Mapped[bool] = mapped_column(Boolean, default=True)
    state: Mapped[str] = mapped_column(String(20), default=BisectState.RUNNING)
    message: Mapped[str | None] = mapped_column(Text)
    revlist_run_id: Mapped[int | None] = mapped_column(ForeignKey("run.id", ondelete="SET NULL"))
    commits: Mapped[list[dict[str, Any]] | None] = mapped_column(JSONB)
    culprit_sha: Mapped[str | None] = mapped_column(String(64))
    culprit_subject: Mapped[str | None] = mapped_column(Text)
    culprit_author: Mapped[str | None] = mapped_column(String(300))
    created_by: Mapped[str] = mapped_column(String(120))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class BisectionStep(Base):
    """One measured candidate: an ordinary run at `commit` and its verdict against both ends."""

    __tablename__ = "bisection_step"
    __table_args__ = (
        CheckConstraint(f"verdict IN ({sql_in(Verdict)})", name="verdict_known"),
        Index("ix_bisection_step_bisection_id", "bisection_id", "id"),
        Index("uq_bisection_step_run_id", "run_id", unique=True),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    bisection_id: Mapped[int] = mapped_column(ForeignKey("bisection.id", ondelete="CASCADE"))
    run_id: Mapped[int | None] = mapped_column(ForeignKey("run.id", ondelete="SET NULL"))
    position: Mapped[int] = mapped_column(Integer)  # its index among the bisection's commits
    commit: Mapped[str] = mapped_column(String(64))
    verdict: Mapped[str] = mapped_column(String(20), default=Verdict.PENDING)
    evidence: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
