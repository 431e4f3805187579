"""drift alerts: an alert's kind ('step' or 'drift') and, for a drift, its window and the runs
that contributed most

Every alert so far named a confirmed step; the detector now also opens a 'drift' alert when
a series' level has moved past the thresholds over a long window without a step. Existing
alerts are steps. The downgrade deletes drift alerts (the older schema cannot tell them from
steps) and drops both columns.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-26 02:00:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("alert", sa.Column("kind", sa.String(10), nullable=False, server_default="step"))
    op.add_column("alert", sa.Column("drift", JSONB, nullable=True))
    op.create_check_constraint(op.f("ck_alert_kind_known"), "alert", "kind IN ('step','drift')")


def downgrade() -> None:
    op.execute("DELETE FROM alert WHERE kind = 'drift'")
    op.drop_constraint(op.f("ck_alert_kind_known"), "alert", type_="check")
    op.drop_column("alert", "drift")
    op.drop_column("alert", "kind")
