"""The profile table: one profile per run, benchmark variant and kind."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from benchdash.db import Base, utcnow
from benchdash.kit.sql import sql_in
from benchdash.profiles.schemas import ProfileKind


class Profile(Base):
    """Folded stacks of one benchmark variant in one run; `data` is the canonical folded text
    (`folded.render`), gzip-compressed."""

    __tablename__ = "profile"
    __table_args__ = (
        UniqueConstraint("run_id", "benchmark_id", "kind"),
        CheckConstraint(f"kind IN ({sql_in(ProfileKind)})", name="kind_known"),
        CheckConstraint("total >= 0 AND stacks_count >= 0", name="counts"),
        Index("ix_profile_benchmark_id", "benchmark_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("run.id", ondelete="CASCADE"))
    benchmark_id: Mapped[int] = mapped_column(ForeignKey("benchmark.id", ondelete="CASCADE"))
    metric_id: Mapped[int | None] = mapped_column(ForeignKey("metric.id", ondelete="SET NULL"))
    kind: Mapped[str] = mapped_column(String(20))
    unit: Mapped[str] = mapped_column(String(20))
    total: Mapped[int] = mapped_column(BigInteger)
    stacks_count: Mapped[int] = mapped_column(Integer)
    data: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
