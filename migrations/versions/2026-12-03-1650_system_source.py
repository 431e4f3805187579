"""systems: a system names its source (repository URL, branches to follow, webhook secret)

`system.source_url` is the git URL agents clone (https, ssh, git or file), `default_branch` the
branch the schedule runs, `followed_branches` the branches whose pushes queue runs,
`hook_secret` the webhook secret (Fernet-encrypted with the server's key: GitHub's HMAC needs
the secret itself), `poll_interval_s` a poll period for hosts webhooks cannot reach (null: off).

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-03 16:50:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("system", sa.Column("source_url", sa.String(500), nullable=True))
    op.add_column("system", sa.Column("default_branch", sa.String(200), nullable=True))
    op.add_column(
        "system",
        sa.Column(
            "followed_branches",
            postgresql.ARRAY(sa.Text()),
            nullable=False,
            server_default=sa.text("'{}'::text[]"),
        ),
    )
    op.add_column("system", sa.Column("hook_secret", sa.Text(), nullable=True))
    op.add_column("system", sa.Column("poll_interval_s", sa.Integer(), nullable=True))
    op.create_check_constraint(
        op.f("ck_system_poll_interval_positive"),
        "system",
        "poll_interval_s IS NULL OR poll_interval_s >= 60",
    )


def downgrade() -> None:
    op.drop_constraint(op.f("ck_system_poll_interval_positive"), "system", type_="check")
    for column in ("poll_interval_s", "hook_secret", "followed_branches", "default_branch"):
        op.drop_column("system", column)
    op.drop_column("system", "source_url")
