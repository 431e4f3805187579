"""The run table."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    ARRAY,
    BigInteger,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from benchdash.db import Base, utcnow
from benchdash.kit.sql import sql_in
from benchdash.runs.states import RunStatus


class Run(Base):
    """One run of one system: commit, branch, testbed, status, environment, configuration."""

    __tablename__ = "run"
    __table_args__ = (
        Index("ix_run_series_order", "system_id", "branch_id", "testbed_id", "started_at"),
        Index("uq_run_system_external_id", "system_id", "external_id", unique=True),
        Index("ix_run_rerun_of", "rerun_of", postgresql_where=text("rerun_of IS NOT NULL")),
        CheckConstraint(f"status IN ({sql_in(RunStatus)})", name="status_known"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    system_id: Mapped[int] = mapped_column(ForeignKey("system.id", ondelete="CASCADE"))
    branch_id: Mapped[int] = mapped_column(ForeignKey("branch.id", ondelete="CASCADE"))
    testbed_id: Mapped[int | None] = mapped_column(ForeignKey("testbed.id"))
    external_id: Mapped[str | None] = mapped_column(String(200))
    commit: Mapped[str | None] = mapped_column(String(64))
    version: Mapped[str | None] = mapped_column(String(100))
    trigger: Mapped[str] = mapped_column(String(20), default="ci")
    profile: Mapped[str | None] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(20), default="completed")
    accepted: Mapped[bool] = mapped_column(default=True)
    message: Mapped[str | None] = mapped_column(Text)
    environment: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    configuration: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Runs triggered through the queue (POST /api/v1/runs):
    ref: Mapped[str | None] = mapped_column(String(200))
    requested_benchmarks: Mapped[list[str] | None] = mapped_column(ARRAY(String(300)))
    job_id: Mapped[int | None] = mapped_column(BigInteger)
    agent: Mapped[str | None] = mapped_column(String(200))
    heartbeat_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    cancel_requested: Mapped[bool] = mapped_column(default=False)
    progress: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    # A re-run queued to confirm or dismiss a suspected change of `rerun_of` (earned alerts).
    rerun_of: Mapped[int | None] = mapped_column(ForeignKey("run.id", ondelete="SET NULL"))
    # Work other than benchmarking that an agent carries out (runners/CONTRACT.md), e.g.
    # {"kind": "revlist", "good": sha, "bad": sha, "first_parent": true} for a bisection.
    task: Mapped[dict[str, Any] | None] = mapped_column(JSONB)


class RunEvent(Base):
    """One state change, progress report or log line of a run; the SSE stream reads these."""

    __tablename__ = "run_event"
    __table_args__ = (
        Index("ix_run_event_run_id_id", "run_id", "id"),
        CheckConstraint("kind IN ('state','progress','log')", name="kind_known"),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("run.id", ondelete="CASCADE"))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    kind: Mapped[str] = mapped_column(String(10))
    data: Mapped[dict[str, Any]] = mapped_column(JSONB)


class RunnerAgent(Base):
    """A runner agent as its heartbeats describe it: its system, name and host, last seen."""

    __tablename__ = "runner_agent"
    __table_args__ = (
        UniqueConstraint("system_id", "name"),
        Index("ix_runner_agent_system_seen", "system_id", "last_seen_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    system_id: Mapped[int] = mapped_column(ForeignKey("system.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    host: Mapped[str | None] = mapped_column(String(200))
    first_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
