"""index on run.rerun_of: the re-runs of a run are found without reading every run

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23 17:00:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "ix_run_rerun_of",
        "run",
        ["rerun_of"],
        postgresql_where=sa.text("rerun_of IS NOT NULL"),
    )


def downgrade() -> None:
    op.drop_index("ix_run_rerun_of", table_name="run")
