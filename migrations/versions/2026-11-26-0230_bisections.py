"""bisection, bisection_step, run.task: bisection on the runner fleet (issue 29)

A confirmed regression over a commit range is bisected by ordinary runs at midpoint commits;
the first one is an agent's task (run.task) that lists the range's commits.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26 02:30:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STATES = "'running', 'found', 'cannot_bisect', 'failed', 'cancelled'"
VERDICTS = "'pending', 'good', 'bad', 'ambiguous', 'skipped', 'failed', 'cancelled'"


def _fk(table: str, column: str, target: str, ondelete: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], [f"{target}.id"], ondelete=ondelete, name=f"fk_{table}_{column}_{target}"
    )


def upgrade() -> None:
    op.add_column("run", sa.Column("task", postgresql.JSONB(), nullable=True))
    op.create_table(
        "bisection",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("system_id", sa.Integer(), nullable=False),
        sa.Column("alert_id", sa.Integer(), nullable=True),
        sa.Column("benchmark_id", sa.Integer(), nullable=False),
        sa.Column("metric_id", sa.Integer(), nullable=False),
        sa.Column("good_run_id", sa.Integer(), nullable=True),
        sa.Column("bad_run_id", sa.Integer(), nullable=True),
        sa.Column("good_commit", sa.String(64), nullable=False),
        sa.Column("bad_commit", sa.String(64), nullable=False),
        sa.Column("branch", sa.String(200), nullable=False),
        sa.Column("profile", sa.String(40), nullable=False),
        sa.Column("first_parent", sa.Boolean(), nullable=False),
        sa.Column("state", sa.String(20), nullable=False),
        sa.Column("message", sa.Text(), nullable=True),
        sa.Column("revlist_run_id", sa.Integer(), nullable=True),
        sa.Column("commits", postgresql.JSONB(), nullable=True),
        sa.Column("culprit_sha", sa.String(64), nullable=True),
        sa.Column("culprit_subject", sa.Text(), nullable=True),
        sa.Column("culprit_author", sa.String(300), nullable=True),
        sa.Column("created_by", sa.String(120), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(f"state IN ({STATES})", name="ck_bisection_state_known"),
        _fk("bisection", "system_id", "system", "CASCADE"),
        _fk("bisection", "alert_id", "alert", "CASCADE"),
        _fk("bisection", "benchmark_id", "benchmark", "CASCADE"),
        _fk("bisection", "metric_id", "metric", "CASCADE"),
        _fk("bisection", "good_run_id", "run", "SET NULL"),
        _fk("bisection", "bad_run_id", "run", "SET NULL"),
        _fk("bisection", "revlist_run_id", "run", "SET NULL"),
        sa.PrimaryKeyConstraint("id", name="pk_bisection"),
    )
    op.create_index("ix_bisection_alert_id", "bisection", ["alert_id"])
    op.create_index(
        "uq_bisection_running_alert",
        "bisection",
        ["alert_id"],
        unique=True,
        postgresql_where=sa.text("state = 'running'"),
    )
    op.create_table(
        "bisection_step",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("bisection_id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=True),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("commit", sa.String(64), nullable=False),
        sa.Column("verdict", sa.String(20), nullable=False),
        sa.Column("evidence", postgresql.JSONB(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(f"verdict IN ({VERDICTS})", name="ck_bisection_step_verdict_known"),
        _fk("bisection_step", "bisection_id", "bisection", "CASCADE"),
        _fk("bisection_step", "run_id", "run", "SET NULL"),
        sa.PrimaryKeyConstraint("id", name="pk_bisection_step"),
    )
    op.create_index("ix_bisection_step_bisection_id", "bisection_step", ["bisection_id", "id"])
    op.create_index("uq_bisection_step_run_id", "bisection_step", ["run_id"], unique=True)


def downgrade() -> None:
    op.drop_table("bisection_step")
    op.drop_table("bisection")
    op.drop_column("run", "task")
