"""metric bounds, a system's repository URL, disabled users

A metric may declare the range its values can take (`min_value`, `max_value`; a `%` unit
implies 0–100): an upload outside it is refused. A system may name its repository, so an alert
links its commit range. An admin may disable a user (who then cannot sign in).

Revision ID: 0011
Revises: 0009
Create Date: 2026-11-26 02:10:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("metric", sa.Column("min_value", sa.Float(), nullable=True))
    op.add_column("metric", sa.Column("max_value", sa.Float(), nullable=True))
    op.create_check_constraint(
        op.f("ck_metric_bounds_ordered"),
        "metric",
        "min_value IS NULL OR max_value IS NULL OR min_value <= max_value",
    )
    op.add_column("system", sa.Column("repository", sa.String(500), nullable=True))
    op.add_column("app_user", sa.Column("disabled_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("app_user", "disabled_at")
    op.drop_column("system", "repository")
    op.drop_constraint(op.f("ck_metric_bounds_ordered"), "metric", type_="check")
    op.drop_column("metric", "max_value")
    op.drop_column("metric", "min_value")
