"""Tables of the systems domain: system, benchmark, metric, branch, testbed."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    ARRAY,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from benchdash.db import Base, utcnow
from benchdash.regression.engine import Thresholds

DIRECTIONS = ("higher_is_better", "lower_is_better")
DEFAULT_THRESHOLDS = Thresholds()  # the one default: warn 5 %, fail 10 %


class System(Base):
    """A benchmarked system (one runner, one result stream)."""

    __tablename__ = "system"
    __table_args__ = (
        CheckConstraint(
            "poll_interval_s IS NULL OR poll_interval_s >= 60", name="poll_interval_positive"
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(200))
    language: Mapped[str | None] = mapped_column(String(64))
    description: Mapped[str | None] = mapped_column(Text)
    headline_benchmark: Mapped[str | None] = mapped_column(String(300))
    headline_metric: Mapped[str | None] = mapped_column(String(120))
    manifest: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    # Where its commits live (https://github.com/o/r): alerts link their commit range there.
    repository: Mapped[str | None] = mapped_column(String(500))
    # Its source (systems.source): the git URL agents clone, the branches whose pushes queue
    # runs, the webhook secret (encrypted) and a poll period for hosts webhooks cannot reach.
    source_url: Mapped[str | None] = mapped_column(String(500))
    default_branch: Mapped[str | None] = mapped_column(String(200))
    followed_branches: Mapped[list[str]] = mapped_column(
        ARRAY(Text), default=list, server_default=text("'{}'::text[]")
    )
    hook_secret: Mapped[str | None] = mapped_column(Text)
    poll_interval_s: Mapped[int | None] = mapped_column(Integer)
    polled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))  # hooks.poll
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Benchmark(Base):
    """A benchmark of a system: a name plus its parameters."""

    __tablename__ = "benchmark"
    __table_args__ = (UniqueConstraint("system_id", "name", "params_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    system_id: Mapped[int] = mapped_column(ForeignKey("system.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(300))
    parameters: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    params_key: Mapped[str] = mapped_column(Text, default="{}")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Metric(Base):
    """A metric of a system with its unit, direction and regression thresholds (percent)."""

    __tablename__ = "metric"
    __table_args__ = (
        UniqueConstraint("system_id", "name"),
        CheckConstraint(
            "direction IN ('higher_is_better', 'lower_is_better')", name="direction_known"
        ),
        CheckConstraint("warn_threshold > 0 AND fail_threshold >= warn_threshold", name="thr"),
        CheckConstraint(
            "min_value IS NULL OR max_value IS NULL OR min_value <= max_value",
            name="bounds_ordered",
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    system_id: Mapped[int] = mapped_column(ForeignKey("system.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(120))
    unit: Mapped[str] = mapped_column(String(40))
    direction: Mapped[str] = mapped_column(String(20))
    warn_threshold: Mapped[float] = mapped_column(Float, default=DEFAULT_THRESHOLDS.warn)
    fail_threshold: Mapped[float] = mapped_column(Float, default=DEFAULT_THRESHOLDS.fail)
    # The range a value can take (a `%` unit implies 0–100): an upload outside it is refused.
    min_value: Mapped[float | None] = mapped_column(Float)
    max_value: Mapped[float | None] = mapped_column(Float)


class Testbed(Base):
    """A machine (or class of machines) results are measured on; series never cross testbeds."""

    __tablename__ = "testbed"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    fingerprint: Mapped[str | None] = mapped_column(String(64))
    environment: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Branch(Base):
    """A branch of a system, with its base branch and an optional pinned baseline run."""

    __tablename__ = "branch"
    __table_args__ = (UniqueConstraint("system_id", "name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    system_id: Mapped[int] = mapped_column(ForeignKey("system.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    base_branch: Mapped[str | None] = mapped_column(String(200))
    pinned_run_id: Mapped[int | None] = mapped_column(
        ForeignKey("run.id", ondelete="SET NULL", use_alter=True)
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
