"""The retention_rule table."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from benchdash.db import Base, utcnow


class RetentionRule(Base):
    """One rule, tried in `position` order: the first whose system (null: every system) and
    branch glob match a run decides how long it and its samples are kept (null: forever)."""

    __tablename__ = "retention_rule"
    __table_args__ = (
        UniqueConstraint("position"),
        CheckConstraint(
            "delete_after_days IS NULL OR delete_after_days > 0", name="delete_positive"
        ),
        CheckConstraint(
            "summarise_after_days IS NULL OR summarise_after_days > 0", name="summarise_positive"
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    system_id: Mapped[int | None] = mapped_column(ForeignKey("system.id", ondelete="CASCADE"))
    branch_pattern: Mapped[str] = mapped_column(String(200))
    delete_after_days: Mapped[int | None] = mapped_column(Integer)
    summarise_after_days: Mapped[int | None] = mapped_column(Integer)
    updated_by: Mapped[str] = mapped_column(String(200))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
