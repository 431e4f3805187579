"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-22 02:06:52.647080+00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "api_token",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("prefix", sa.String(length=16), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("scopes", sa.ARRAY(sa.String(length=20)), nullable=False),
        sa.Column("systems", sa.ARRAY(sa.String(length=64)), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_token")),
        sa.UniqueConstraint("prefix", name=op.f("uq_api_token_prefix")),
    )
    op.create_table(
        "app_user",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("username", sa.String(length=120), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
        sa.Column("is_admin", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_app_user")),
        sa.UniqueConstraint("username", name=op.f("uq_app_user_username")),
    )
    op.create_table(
        "system",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("language", sa.String(length=64), nullable=True),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("headline_benchmark", sa.String(length=300), nullable=True),
        sa.Column("headline_metric", sa.String(length=120), nullable=True),
        sa.Column("manifest", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_system")),
        sa.UniqueConstraint("slug", name=op.f("uq_system_slug")),
    )
    op.create_table(
        "testbed",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=True),
        sa.Column("environment", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_testbed")),
        sa.UniqueConstraint("name", name=op.f("uq_testbed_name")),
    )
    op.create_table(
        "benchmark",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("system_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=300), nullable=False),
        sa.Column("parameters", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("params_key", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["system_id"],
            ["system.id"],
            name=op.f("fk_benchmark_system_id_system"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_benchmark")),
        sa.UniqueConstraint(
            "system_id",
            "name",
            "params_key",
            name=op.f("uq_benchmark_system_id_name_params_key"),
        ),
    )
    op.create_table(
        "branch",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("system_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("base_branch", sa.String(length=200), nullable=True),
        sa.Column("pinned_run_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["system_id"],
            ["system.id"],
            name=op.f("fk_branch_system_id_system"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_branch")),
        sa.UniqueConstraint("system_id", "name", name=op.f("uq_branch_system_id_name")),
    )
    op.create_table(
        "metric",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("system_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("unit", sa.String(length=40), nullable=False),
        sa.Column("direction", sa.String(length=20), nullable=False),
        sa.Column("warn_threshold", sa.Float(), nullable=False),
        sa.Column("fail_threshold", sa.Float(), nullable=False),
        sa.CheckConstraint(
            "direction IN ('higher_is_better', 'lower_is_better')",
            name=op.f("ck_metric_direction_known"),
        ),
        sa.CheckConstraint(
            "warn_threshold > 0 AND fail_threshold >= warn_threshold",
            name=op.f("ck_metric_thr"),
        ),
        sa.ForeignKeyConstraint(
            ["system_id"],
            ["system.id"],
            name=op.f("fk_metric_system_id_system"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_metric")),
        sa.UniqueConstraint("system_id", "name", name=op.f("uq_metric_system_id_name")),
    )
    op.create_table(
        "run",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("system_id", sa.Integer(), nullable=False),
        sa.Column("branch_id", sa.Integer(), nullable=False),
        sa.Column("testbed_id", sa.Integer(), nullable=True),
        sa.Column("external_id", sa.String(length=200), nullable=True),
        sa.Column("commit", sa.String(length=64), nullable=True),
        sa.Column("version", sa.String(length=100), nullable=True),
        sa.Column("trigger", sa.String(length=20), nullable=False),
        sa.Column("profile", sa.String(length=40), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("accepted", sa.Boolean(), nullable=False),
        sa.Column("message", sa.Text(), nullable=True),
        sa.Column("environment", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("configuration", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('queued','building','running','uploading','completed','failed',"
            "'cancelled','timed_out')",
            name=op.f("ck_run_status_known"),
        ),
        sa.ForeignKeyConstraint(
            ["branch_id"],
            ["branch.id"],
            name=op.f("fk_run_branch_id_branch"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["system_id"],
            ["system.id"],
            name=op.f("fk_run_system_id_system"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["testbed_id"], ["testbed.id"], name=op.f("fk_run_testbed_id_testbed")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_run")),
    )
    op.create_index(
        "ix_run_series_order",
        "run",
        ["system_id", "branch_id", "testbed_id", "started_at"],
        unique=False,
    )
    op.create_index("uq_run_system_external_id", "run", ["system_id", "external_id"], unique=True)
    op.create_foreign_key(
        op.f("fk_branch_pinned_run_id_run"),
        "branch",
        "run",
        ["pinned_run_id"],
        ["id"],
        ondelete="SET NULL",
    )
    op.create_table(
        "measurement",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("benchmark_id", sa.Integer(), nullable=False),
        sa.Column("metric_id", sa.Integer(), nullable=False),
        sa.Column("value", sa.Float(), nullable=False),
        sa.Column("samples", sa.ARRAY(sa.Float()), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("mean", sa.Float(), nullable=True),
        sa.Column("median", sa.Float(), nullable=True),
        sa.Column("stddev", sa.Float(), nullable=True),
        sa.Column("min_value", sa.Float(), nullable=True),
        sa.Column("max_value", sa.Float(), nullable=True),
        sa.Column("cv", sa.Float(), nullable=True),
        sa.Column("outliers_removed", sa.Integer(), nullable=False),
        sa.CheckConstraint(
            "min_value IS NULL OR min_value <= max_value",
            name=op.f("ck_measurement_min_le_max"),
        ),
        sa.CheckConstraint("n >= 0", name=op.f("ck_measurement_n_nonneg")),
        sa.CheckConstraint("outliers_removed >= 0", name=op.f("ck_measurement_outliers_nonneg")),
        sa.CheckConstraint(
            "stddev IS NULL OR stddev >= 0", name=op.f("ck_measurement_stddev_nonneg")
        ),
        sa.ForeignKeyConstraint(
            ["benchmark_id"],
            ["benchmark.id"],
            name=op.f("fk_measurement_benchmark_id_benchmark"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["metric_id"],
            ["metric.id"],
            name=op.f("fk_measurement_metric_id_metric"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["run.id"],
            name=op.f("fk_measurement_run_id_run"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_measurement")),
        sa.UniqueConstraint(
            "run_id",
            "benchmark_id",
            "metric_id",
            name=op.f("uq_measurement_run_id_benchmark_id_metric_id"),
        ),
    )
    op.create_index(
        "ix_measurement_series",
        "measurement",
        ["benchmark_id", "metric_id", "run_id"],
        unique=False,
    )
    op.create_table(
        "verdict",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("measurement_id", sa.Integer(), nullable=False),
        sa.Column("level", sa.String(length=20), nullable=False),
        sa.Column("baseline_value", sa.Float(), nullable=True),
        sa.Column("baseline_run_ids", sa.ARRAY(sa.Integer()), nullable=False),
        sa.Column("baseline_source", sa.String(length=20), nullable=True),
        sa.Column("change_pct", sa.Float(), nullable=True),
        sa.Column("p_value", sa.Float(), nullable=True),
        sa.Column("z_score", sa.Float(), nullable=True),
        sa.Column("gate", sa.String(length=20), nullable=True),
        sa.Column("warn_threshold", sa.Float(), nullable=False),
        sa.Column("fail_threshold", sa.Float(), nullable=False),
        sa.Column("explanation", sa.Text(), nullable=False),
        sa.CheckConstraint(
            "level IN ('ok','improved','warn','fail','noisy','unstable','no_baseline')",
            name=op.f("ck_verdict_level_known"),
        ),
        sa.ForeignKeyConstraint(
            ["measurement_id"],
            ["measurement.id"],
            name=op.f("fk_verdict_measurement_id_measurement"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_verdict")),
        sa.UniqueConstraint("measurement_id", name=op.f("uq_verdict_measurement_id")),
    )
    op.create_table(
        "alert",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("system_id", sa.Integer(), nullable=False),
        sa.Column("benchmark_id", sa.Integer(), nullable=False),
        sa.Column("metric_id", sa.Integer(), nullable=False),
        sa.Column("branch_id", sa.Integer(), nullable=False),
        sa.Column("testbed_id", sa.Integer(), nullable=False),
        sa.Column("verdict_id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("acknowledged_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("acknowledged_by", sa.String(length=120), nullable=True),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("resolved_by_run_id", sa.Integer(), nullable=True),
        sa.CheckConstraint(
            "status IN ('open','acknowledged','resolved')",
            name=op.f("ck_alert_status_known"),
        ),
        sa.ForeignKeyConstraint(
            ["benchmark_id"],
            ["benchmark.id"],
            name=op.f("fk_alert_benchmark_id_benchmark"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["branch_id"],
            ["branch.id"],
            name=op.f("fk_alert_branch_id_branch"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["metric_id"],
            ["metric.id"],
            name=op.f("fk_alert_metric_id_metric"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["run_id"], ["run.id"], name=op.f("fk_alert_run_id_run"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["system_id"],
            ["system.id"],
            name=op.f("fk_alert_system_id_system"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["testbed_id"],
            ["testbed.id"],
            name=op.f("fk_alert_testbed_id_testbed"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["verdict_id"],
            ["verdict.id"],
            name=op.f("fk_alert_verdict_id_verdict"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_alert")),
    )
    op.create_index(
        "uq_alert_active_series",
        "alert",
        ["benchmark_id", "metric_id", "branch_id", "testbed_id"],
        unique=True,
        postgresql_where=sa.text("status <> 'resolved'"),
    )


def downgrade() -> None:
    op.drop_constraint(op.f("fk_branch_pinned_run_id_run"), "branch", type_="foreignkey")
    op.drop_index(
        "uq_alert_active_series",
        table_name="alert",
        postgresql_where=sa.text("status <> 'resolved'"),
    )
    op.drop_table("alert")
    op.drop_table("verdict")
    op.drop_index("ix_measurement_series", table_name="measurement")
    op.drop_table("measurement")
    op.drop_index("uq_run_system_external_id", table_name="run")
    op.drop_index("ix_run_series_order", table_name="run")
    op.drop_table("run")
    op.drop_table("metric")
    op.drop_table("branch")
    op.drop_table("benchmark")
    op.drop_table("testbed")
    op.drop_table("system")
    op.drop_table("app_user")
    op.drop_table("api_token")
