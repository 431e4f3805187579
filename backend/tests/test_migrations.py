"""Every migration downgrades and upgrades again on a scratch database; data migrations keep
what was stored."""

from collections.abc import Iterator
from contextlib import contextmanager

from alembic import command
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import Engine

from benchdash.startup import alembic_config


@contextmanager
def scratch_database(engine: Engine, suffix: str) -> Iterator[Engine]:
    """An empty database beside the test database, dropped afterwards."""
    url = engine.url.set(database=f"{engine.url.database}_{suffix}")
    admin = create_engine(engine.url, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'DROP DATABASE IF EXISTS "{url.database}"'))
        c.execute(text(f'CREATE DATABASE "{url.database}"'))
    scratch = create_engine(url)
    try:
        yield scratch
    finally:
        scratch.dispose()
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{url.database}" WITH (FORCE)'))
        admin.dispose()


def migrate(scratch: Engine, target: str, down: bool = False) -> None:
    """alembic upgrade (or downgrade) `target` on the scratch database."""
    cfg = alembic_config()
    with scratch.begin() as conn:
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, target)


def test_downgrade_to_base_and_back(engine: Engine) -> None:
    with scratch_database(engine, "mig") as scratch:
        for target, expect_tables in (("head", True), ("base", False), ("head", True)):
            migrate(scratch, target, down=target == "base")
            names = set(inspect(scratch).get_table_names())
            assert ("measurement" in names) is expect_tables


_TWO_POINTS = [
    "INSERT INTO system (id, slug, name, created_at) VALUES (1, 's', 's', now())",
    "INSERT INTO branch (id, system_id, name, created_at) VALUES (1, 1, 'main', now())",
    "INSERT INTO testbed (id, name, created_at) VALUES (1, 'tb', now())",
    "INSERT INTO benchmark (id, system_id, name, parameters, params_key, created_at) "
    "VALUES (1, 1, 'b', '{}', '{}', now())",
    "INSERT INTO metric (id, system_id, name, unit, direction, warn_threshold, fail_threshold) "
    "VALUES (1, 1, 'm', 'ns', 'lower_is_better', 5, 10)",
    "INSERT INTO series (id, system_id, benchmark_id, metric_id, branch_id, testbed_id) "
    "VALUES (1, 1, 1, 1, 1, 1)",
    "INSERT INTO run (id, system_id, branch_id, testbed_id, external_id, commit, trigger, "
    "status, accepted, created_at, started_at) "
    "VALUES (1, 1, 1, 1, 'r1', 'abc', 'ci', 'completed', true, now(), now()), "
    "(2, 1, 1, 1, 'r2', 'abd', 'ci', 'completed', true, now(), now())",
    "INSERT INTO measurement (id, run_id, benchmark_id, metric_id, series_id, started_at, "
    "value, samples, n, outliers_removed) "
    "VALUES (1, 1, 1, 1, 1, now(), 1, '{1}', 1, 0), (2, 2, 1, 1, 1, now(), 2, '{2}', 1, 0)",
    "INSERT INTO verdict (measurement_id, level, baseline_run_ids, warn_threshold, "
    "fail_threshold, explanation, stage) VALUES (1, 'ok', '{}', 5, 10, '', NULL), "
    "(2, 'fail', '{}', 5, 10, '', 'confirmed')",
]


def test_0006_copies_each_verdict_level_and_stage_onto_its_measurement(engine: Engine) -> None:
    with scratch_database(engine, "mig6") as scratch:
        migrate(scratch, "0005")
        with scratch.begin() as conn:
            for statement in _TWO_POINTS:
                conn.execute(text(statement))
        migrate(scratch, "0006")
        with scratch.connect() as conn:
            rows = conn.execute(text("SELECT id, level, stage FROM measurement ORDER BY id"))
            assert rows.all() == [(1, "ok", None), (2, "fail", "confirmed")]
            index = conn.scalar(
                text(
                    "SELECT indexdef FROM pg_indexes WHERE indexname = 'ix_measurement_series_time'"
                )
            )
            assert "INCLUDE (id, value, level, stage)" in str(index)
        migrate(scratch, "0005", down=True)
        assert "level" not in {c["name"] for c in inspect(scratch).get_columns("measurement")}


_PARTITION = "0018"


def _stored(scratch: Engine) -> list[tuple[object, ...]]:
    with scratch.connect() as conn:
        return conn.execute(
            text(
                "SELECT m.id, m.run_id, m.value, m.started_at, v.level, v.stage "
                "FROM measurement m JOIN verdict v ON v.measurement_id = m.id ORDER BY m.id"
            )
        ).all()


def test_0018_partitions_measurement_and_carries_its_rows_both_ways(engine: Engine) -> None:
    with scratch_database(engine, "mig16") as scratch:
        migrate(scratch, f"{_PARTITION}-1")
        with scratch.begin() as conn:
            for statement in _TWO_POINTS:
                conn.execute(text(statement))
            conn.execute(text("UPDATE run SET started_at = '2024-03-05' WHERE id = 1"))
            conn.execute(text("UPDATE measurement SET started_at = '2024-03-05' WHERE id = 1"))
        before = _stored(scratch)
        migrate(scratch, _PARTITION)
        assert _stored(scratch) == before
        with scratch.begin() as conn:
            kind = conn.scalar(text("SELECT relkind FROM pg_class WHERE relname = 'measurement'"))
            assert kind == "p"
            placed = conn.execute(
                text("SELECT id, CAST(tableoid AS regclass)::text FROM measurement ORDER BY id")
            ).all()
            assert placed[0] == (1, "measurement_y2024m03")
            assert placed[1][1].startswith("measurement_y20")
            pk = conn.scalar(
                text("SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = :n"),
                {"n": "pk_measurement"},
            )
            assert pk == "PRIMARY KEY (id, started_at)"
            # the id sequence moved with the column (dropping the old table kept it)
            seq = conn.scalar(text("SELECT pg_get_serial_sequence('measurement', 'id')"))
            assert seq == "public.measurement_id_seq"
            # the verdict's foreign key holds: deleting a measurement deletes its verdict
            conn.execute(text("DELETE FROM measurement WHERE id = 2"))
            assert conn.scalar(text("SELECT count(*) FROM verdict")) == 1
        migrate(scratch, f"{_PARTITION}-1", down=True)
        assert _stored(scratch) == before[:1]
        with scratch.connect() as conn:
            kind = conn.scalar(text("SELECT relkind FROM pg_class WHERE relname = 'measurement'"))
            assert kind == "r"
            assert conn.scalar(text("SELECT to_regclass('measurement_default')")) is None
        assert "started_at" not in {c["name"] for c in inspect(scratch).get_columns("verdict")}
        migrate(scratch, _PARTITION)
        assert _stored(scratch) == before[:1]


def test_0019_leaves_stored_rows_uncopied_and_the_downgrade_drops_the_copies(
    engine: Engine,
) -> None:
    with scratch_database(engine, "mig19") as scratch:
        migrate(scratch, "0018")
        with scratch.begin() as conn:
            for statement in _TWO_POINTS[:-1]:
                conn.execute(text(statement))
            conn.execute(
                text(
                    "INSERT INTO verdict (measurement_id, started_at, level, baseline_run_ids, "
                    "warn_threshold, fail_threshold, explanation, change_pct) "
                    "SELECT id, started_at, 'ok', '{}', 5, 10, '', 3.5 FROM measurement"
                )
            )
        migrate(scratch, "0019")
        with scratch.connect() as conn:
            rows = conn.execute(
                text("SELECT chart_copied, change_pct FROM measurement ORDER BY id")
            ).all()
        assert rows == [(False, None), (False, None)]  # read through their verdicts
        migrate(scratch, "0018", down=True)
        columns = {c["name"] for c in inspect(scratch).get_columns("measurement")}
        assert not columns & {"chart_copied", "baseline_value", "change_pct", "p_value"}
