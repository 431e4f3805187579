"""systems: when a polled source was last asked for its branches' heads

`system.polled_at` is set by the poll job (hooks.poll) each time it runs `git ls-remote` on a
system whose `poll_interval_s` is set; the next poll is due `poll_interval_s` later, whichever
API process looks then.

Revision ID: 0026
Revises: 0024
Create Date: 2026-12-04 06:20:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0026"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("system", sa.Column("polled_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("system", "polled_at")
