"""The page points each series keeps between reads (`series_chart`)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from benchdash.db import Base, utcnow


class SeriesChart(Base):
    """A series' points as a system page draws them, kept with the stamp they were read at.

    `view` names what was asked (the profile and the points per chart); `stamp` is what the
    series' rows looked like then (count, newest run, confirmed and dismissed points): a row
    whose stamp no longer matches is read again. A derived cache: dropping every row loses
    nothing."""

    __tablename__ = "series_chart"

    series_id: Mapped[int] = mapped_column(
        ForeignKey("series.id", ondelete="CASCADE"), primary_key=True
    )
    view: Mapped[str] = mapped_column(String(80), primary_key=True)
    stamp: Mapped[str] = mapped_column(String(80))
    total: Mapped[int] = mapped_column(Integer)
    picked: Mapped[int] = mapped_column(Integer)
    last_level: Mapped[str | None] = mapped_column(String(20))
    last_stage: Mapped[str | None] = mapped_column(String(12))
    run_ids: Mapped[str] = mapped_column(Text)  # JSON: each picked point's run, oldest first
    columns: Mapped[str] = mapped_column(Text)
    refreshed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
