"""series_chart: each series' page points, kept between reads

A system page asks for every series of a view at once, each decimated to a few hundred
points. For long series that decimation is the page's cost (300 series × 500 runs: every one of
150,000 rows ranked and bucketed on every load), while a series' points change only when a
run lands or one of its points' stages moves. A row keeps a series' picked points for one view
(profile and points per chart) with the stamp they were read at; the page reads the rows whose
stamp still holds and decimates only the others. A derived cache: the downgrade drops it and
loses nothing.

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-26 12:30:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "series_chart",
        sa.Column("series_id", sa.Integer(), nullable=False),
        sa.Column("view", sa.String(length=80), nullable=False),
        sa.Column("stamp", sa.String(length=80), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("picked", sa.Integer(), nullable=False),
        sa.Column("last_level", sa.String(length=20), nullable=True),
        sa.Column("last_stage", sa.String(length=12), nullable=True),
        sa.Column("run_ids", sa.Text(), nullable=False),
        sa.Column("columns", sa.Text(), nullable=False),
        sa.Column("refreshed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["series_id"],
            ["series.id"],
            name=op.f("fk_series_chart_series_id_series"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("series_id", "view", name=op.f("pk_series_chart")),
    )


def downgrade() -> None:
    op.drop_table("series_chart")
