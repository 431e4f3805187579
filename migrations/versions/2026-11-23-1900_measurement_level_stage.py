"""verdict level and stage copied onto measurement, series index covering: series reads
without the verdict join

A series read of 10,000 points picks the points to draw from (time, value, level), and its
ETag counts the confirmed and dismissed points. With the level and stage only on `verdict`,
both queries joined every verdict of the series, which PostgreSQL answered with a scan of the
whole verdict table. The copies are written with the verdict at ingest and changed with it
when a step is confirmed or a re-run dismisses it. `ix_measurement_series_time` now includes
(id, value, level, stage), so those two queries are index-only scans: the rows of a long series
lie scattered over the table (a run writes all its series together).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 19:00:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("measurement", sa.Column("level", sa.String(20), nullable=True))
    op.add_column("measurement", sa.Column("stage", sa.String(12), nullable=True))
    op.execute(
        "UPDATE measurement m SET level = v.level, stage = v.stage "
        "FROM verdict v WHERE v.measurement_id = m.id"
    )
    op.drop_index("ix_measurement_series_time", table_name="measurement")
    op.create_index(
        "ix_measurement_series_time",
        "measurement",
        ["series_id", "started_at", "run_id"],
        postgresql_include=["id", "value", "level", "stage"],
    )


def downgrade() -> None:
    op.drop_index("ix_measurement_series_time", table_name="measurement")
    op.create_index(
        "ix_measurement_series_time", "measurement", ["series_id", "started_at", "run_id"]
    )
    op.drop_column("measurement", "stage")
    op.drop_column("measurement", "level")
