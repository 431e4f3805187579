"""Series, measurement and verdict tables."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    ARRAY,
    Boolean,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from benchdash.db import Base, utcnow
from benchdash.kit.sql import sql_in
from benchdash.regression.engine import Level


class Series(Base):
    """What is compared over time: one benchmark variant's metric on one branch and testbed."""

    __tablename__ = "series"
    __table_args__ = (UniqueConstraint("benchmark_id", "metric_id", "branch_id", "testbed_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    system_id: Mapped[int] = mapped_column(ForeignKey("system.id", ondelete="CASCADE"))
    benchmark_id: Mapped[int] = mapped_column(ForeignKey("benchmark.id", ondelete="CASCADE"))
    metric_id: Mapped[int] = mapped_column(ForeignKey("metric.id", ondelete="CASCADE"))
    branch_id: Mapped[int] = mapped_column(ForeignKey("branch.id", ondelete="CASCADE"))
    testbed_id: Mapped[int] = mapped_column(ForeignKey("testbed.id", ondelete="CASCADE"))


class Measurement(Base):
    """One metric of one benchmark in one run, with its sample statistics.

    Partitioned by month on `started_at` (migration 0018, `results/partitions.py`): every key
    holds it, so the primary key is (id, started_at)."""

    __tablename__ = "measurement"
    __table_args__ = (
        UniqueConstraint("run_id", "benchmark_id", "metric_id", "started_at"),
        Index("ix_measurement_series", "benchmark_id", "metric_id", "run_id"),
        # Covering: a series read picks its points (id, time, value, level) and stamps its ETag
        # (stage) from the index alone, without visiting the rows of a long series.
        Index(
            "ix_measurement_series_time",
            "series_id",
            "started_at",
            "run_id",
            postgresql_include=["id", "value", "level", "stage"],
        ),
        CheckConstraint("n >= 0", name="n_nonneg"),
        CheckConstraint("stddev IS NULL OR stddev >= 0", name="stddev_nonneg"),
        CheckConstraint("min_value IS NULL OR min_value <= max_value", name="min_le_max"),
        CheckConstraint("outliers_removed >= 0", name="outliers_nonneg"),
        {"postgresql_partition_by": "RANGE (started_at)"},
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("run.id", ondelete="CASCADE"))
    benchmark_id: Mapped[int] = mapped_column(ForeignKey("benchmark.id", ondelete="CASCADE"))
    metric_id: Mapped[int] = mapped_column(ForeignKey("metric.id", ondelete="CASCADE"))
    series_id: Mapped[int] = mapped_column(ForeignKey("series.id", ondelete="CASCADE"))
    started_at: Mapped[datetime] = mapped_column(  # the run's; the partition key
        DateTime(timezone=True), primary_key=True
    )
    value: Mapped[float] = mapped_column(Float)
    samples: Mapped[list[float]] = mapped_column(ARRAY(Float), default=list)
    n: Mapped[int] = mapped_column(Integer, default=0)
    mean: Mapped[float | None] = mapped_column(Float)
    median: Mapped[float | None] = mapped_column(Float)
    stddev: Mapped[float | None] = mapped_column(Float)
    min_value: Mapped[float | None] = mapped_column(Float)
    max_value: Mapped[float | None] = mapped_column(Float)
    cv: Mapped[float | None] = mapped_column(Float)
    outliers_removed: Mapped[int] = mapped_column(Integer, default=0)
    # Copies of its verdict's level and stage, so that a series read needs no verdict join:
    # written with the verdict (results/store.py) and changed with its stage (alerts).
    level: Mapped[str | None] = mapped_column(String(20))
    stage: Mapped[str | None] = mapped_column(String(12))
    # Copies of its verdict's baseline, change and p-value (never changed after), so a chart
    # needs no verdict lookup per point; `chart_copied` is false on rows stored before 0019,
    # which are read through their verdict.
    baseline_value: Mapped[float | None] = mapped_column(Float)
    change_pct: Mapped[float | None] = mapped_column(Float)
    p_value: Mapped[float | None] = mapped_column(Float)
    chart_copied: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class Verdict(Base):
    """The regression verdict of one measurement against its baseline."""

    __tablename__ = "verdict"
    __table_args__ = (
        CheckConstraint(f"level IN ({sql_in(Level)})", name="level_known"),
        # A partitioned table is referenced through a key holding its partition key.
        ForeignKeyConstraint(
            ["measurement_id", "started_at"],
            ["measurement.id", "measurement.started_at"],
            ondelete="CASCADE",
            onupdate="CASCADE",
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    measurement_id: Mapped[int] = mapped_column(Integer, unique=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))  # its measurement's
    level: Mapped[str] = mapped_column(String(20))
    baseline_value: Mapped[float | None] = mapped_column(Float)
    baseline_run_ids: Mapped[list[int]] = mapped_column(ARRAY(Integer), default=list)
    baseline_source: Mapped[str | None] = mapped_column(String(20))
    change_pct: Mapped[float | None] = mapped_column(Float)
    p_value: Mapped[float | None] = mapped_column(Float)
    z_score: Mapped[float | None] = mapped_column(Float)
    gate: Mapped[str | None] = mapped_column(String(20))
    warn_threshold: Mapped[float] = mapped_column(Float)
    fail_threshold: Mapped[float] = mapped_column(Float)
    explanation: Mapped[str] = mapped_column(Text, default="")
    # Earned alerts: the stage of this point, the floors its change had to cross (percent, from
    # the configured thresholds and the series' run-to-run variation), why it was not judged.
    stage: Mapped[str | None] = mapped_column(String(12))
    floor_warn: Mapped[float | None] = mapped_column(Float)
    floor_fail: Mapped[float | None] = mapped_column(Float)
    variation: Mapped[float | None] = mapped_column(Float)
    reason: Mapped[str | None] = mapped_column(Text)


class SeriesRestart(Base):
    """An accepted distribution change: the series' baseline restarts at this run."""

    __tablename__ = "series_restart"
    __table_args__ = (UniqueConstraint("series_id", "run_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    series_id: Mapped[int] = mapped_column(ForeignKey("series.id", ondelete="CASCADE"))
    run_id: Mapped[int] = mapped_column(ForeignKey("run.id", ondelete="CASCADE"))
    note: Mapped[str] = mapped_column(Text)
    created_by: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
