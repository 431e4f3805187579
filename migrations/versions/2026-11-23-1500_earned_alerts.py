"""earned alerts: verdict stages and noise floors, alerts naming a step, accepted changes

- `verdict`: `stage` (suspected / confirmed / dismissed), the effective floors the change had
  to cross (`floor_warn`, `floor_fail`, percent), the series' run-to-run `variation` (%) and
  the `reason` nothing was judged (too little history).
- `alert`: the step it names (`run_id` is its first bad run, `last_good_run_id` the run
  before), its `level`, the level before the step (`baseline_value`), the floor it crossed,
  the step size, how it was confirmed.
- `series_restart`: a maintainer's accepted distribution change ("expected: new allocator");
  the series' baseline restarts at that run.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 15:00:00+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("verdict", sa.Column("stage", sa.String(12), nullable=True))
    op.add_column("verdict", sa.Column("floor_warn", sa.Float(), nullable=True))
    op.add_column("verdict", sa.Column("floor_fail", sa.Float(), nullable=True))
    op.add_column("verdict", sa.Column("variation", sa.Float(), nullable=True))
    op.add_column("verdict", sa.Column("reason", sa.Text(), nullable=True))
    op.create_check_constraint(
        "ck_verdict_stage_known",
        "verdict",
        "stage IS NULL OR stage IN ('suspected','confirmed','dismissed')",
    )
    op.add_column("alert", sa.Column("level", sa.String(10), nullable=False, server_default="fail"))
    op.add_column("alert", sa.Column("last_good_run_id", sa.Integer(), nullable=True))
    op.add_column("alert", sa.Column("baseline_value", sa.Float(), nullable=True))
    op.add_column("alert", sa.Column("warn_floor", sa.Float(), nullable=True))
    op.add_column("alert", sa.Column("change_pct", sa.Float(), nullable=True))
    op.add_column("alert", sa.Column("p_value", sa.Float(), nullable=True))
    op.add_column("alert", sa.Column("confirmed_by", sa.String(20), nullable=True))
    op.create_foreign_key(
        "fk_alert_last_good_run_id_run",
        "alert",
        "run",
        ["last_good_run_id"],
        ["id"],
        ondelete="SET NULL",
    )
    op.create_check_constraint("ck_alert_level_known", "alert", "level IN ('warn','fail')")
    op.create_table(
        "series_restart",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("series_id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("created_by", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["series_id"],
            ["series.id"],
            ondelete="CASCADE",
            name="fk_series_restart_series_id_series",
        ),
        sa.ForeignKeyConstraint(
            ["run_id"], ["run.id"], ondelete="CASCADE", name="fk_series_restart_run_id_run"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_series_restart"),
        sa.UniqueConstraint("series_id", "run_id", name="uq_series_restart_series_id"),
    )


def downgrade() -> None:
    op.drop_table("series_restart")
    op.drop_constraint("ck_alert_level_known", "alert", type_="check")
    op.drop_constraint("fk_alert_last_good_run_id_run", "alert", type_="foreignkey")
    for column in (
        "confirmed_by",
        "p_value",
        "change_pct",
        "warn_floor",
        "baseline_value",
        "last_good_run_id",
        "level",
    ):
        op.drop_column("alert", column)
    op.drop_constraint("ck_verdict_stage_known", "verdict", type_="check")
    for column in ("reason", "variation", "floor_fail", "floor_warn", "stage"):
        op.drop_column("verdict", column)
