"""The user_identity table: which provider account ((issuer, subject)) is which user."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from benchdash.db import Base, utcnow


class UserIdentity(Base):
    """A provider's account linked to a user (created at the account's first sign-in)."""

    __tablename__ = "user_identity"
    __table_args__ = (
        UniqueConstraint("issuer", "subject"),
        Index("ix_user_identity_user_id", "user_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    issuer: Mapped[str] = mapped_column(String(500))
    subject: Mapped[str] = mapped_column(String(255))
    user_id: Mapped[int] = mapped_column(ForeignKey("app_user.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_sign_in_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
