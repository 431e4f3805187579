"""Every migration downgrades and upgrades again on a scratch database."""

from alembic import command
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import Engine

from benchdash.startup import alembic_config


def test_downgrade_to_base_and_back(engine: Engine) -> None:
    url = engine.url.set(database=f"{engine.url.database}_mig")
    admin = create_engine(engine.url, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'DROP DATABASE IF EXISTS "{url.database}"'))
        c.execute(text(f'CREATE DATABASE "{url.database}"'))
    scratch = create_engine(url)
    cfg = alembic_config()
    try:
        for target, expect_tables in (("head", True), ("base", False), ("head", True)):
            with scratch.begin() as conn:
                cfg.attributes["connection"] = conn
                (command.upgrade if target == "head" else command.downgrade)(cfg, target)
            names = set(inspect(scratch).get_table_names())
            assert ("measurement" in names) is expect_tables
    finally:
        scratch.dispose()
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{url.database}" WITH (FORCE)'))
        admin.dispose()
