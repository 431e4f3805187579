"""verdict level 'learning': a series too young to judge says so instead of 'noisy'

A verdict given with fewer runs than the detector needs to measure the series' noise (10, or 3
since a restart) was stored as 'noisy' when its change crossed the warn threshold, and read as
noise by people. It is now 'learning'. Old verdicts keep what they were; the downgrade turns
'learning' back into 'ok', the nearest level the older schema knows.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25 19:30:00+00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD = "'ok','improved','warn','fail','noisy','unstable','no_baseline'"
NEW = "'ok','improved','warn','fail','noisy','unstable','learning','no_baseline'"


def upgrade() -> None:
    op.drop_constraint(op.f("ck_verdict_level_known"), "verdict", type_="check")
    op.create_check_constraint(op.f("ck_verdict_level_known"), "verdict", f"level IN ({NEW})")


def downgrade() -> None:
    op.execute("UPDATE verdict SET level = 'ok' WHERE level = 'learning'")
    op.execute("UPDATE measurement SET level = 'ok' WHERE level = 'learning'")
    op.drop_constraint(op.f("ck_verdict_level_known"), "verdict", type_="check")
    op.create_check_constraint(op.f("ck_verdict_level_known"), "verdict", f"level IN ({OLD})")
