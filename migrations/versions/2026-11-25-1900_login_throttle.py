"""login throttle: failed sign-ins counted per user name and per client address

A row per key ("user:<name>", "addr:<ip>") counts the sign-in attempts since the last success
(or since the window expired) and when the last one was. The API admits an attempt only once
the backoff after that many attempts has passed; the rows live in the database so every API
process and replica sees the same counts.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25 19:00:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "login_throttle",
        sa.Column("key", sa.String(300), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("attempts >= 0", name=op.f("ck_login_throttle_attempts_nonneg")),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_login_throttle")),
    )


def downgrade() -> None:
    op.drop_table("login_throttle")
