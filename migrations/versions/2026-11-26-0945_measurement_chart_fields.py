"""measurement: copies of its verdict's baseline, change and p-value (the chart's fields)

A series read (and a system page's batch) drew each point's baseline, change and p-value from
its verdict: a lookup per point, most of a 1,000-point read's time in PostgreSQL. New
measurements carry copies, written with the verdict (these three never change after it is
stored); `chart_copied` says the copies are there. Rows stored before keep `chart_copied`
false and are read through their verdict as before, so the upgrade rewrites no row (adding
nullable columns and a column with a constant default is a catalog change, however large the
table). The downgrade drops the four columns.

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-26 09:45:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COPIES = ("baseline_value", "change_pct", "p_value")


def upgrade() -> None:
    for name in COPIES:
        op.add_column("measurement", sa.Column(name, sa.Float(), nullable=True))
    op.add_column(
        "measurement",
        sa.Column("chart_copied", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    for name in ("chart_copied", *reversed(COPIES)):
        op.drop_column("measurement", name)
