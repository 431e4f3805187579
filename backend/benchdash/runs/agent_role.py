"""The PostgreSQL role of runner agents: the job queue and the host lock, nothing else.

An agent is a procrastinate worker, so it needs the queue's database; it does not need the
runs, results, tokens or users. `benchdash-server migrate` keeps the role `benchdash_agent`
(with BENCHDASH_AGENT_DB_PASSWORD set): it may log in, use procrastinate's tables (through
procrastinate's functions, which PostgreSQL lets every role execute), LISTEN/NOTIFY and take
advisory locks (the host lock); every other table of the schema is closed to it.
"""

from __future__ import annotations

from sqlalchemy import Connection, text

AGENT_ROLE = "benchdash_agent"


def ensure_agent_role(*, connection: Connection, password: str) -> list[str]:
    """Create or update the agents' role and grant it the queue's tables only; returns them."""
    exists = connection.execute(
        text("SELECT 1 FROM pg_roles WHERE rolname = :role"), {"role": AGENT_ROLE}
    ).scalar()
    verb = "ALTER" if exists else "CREATE"
    statement = connection.execute(
        text(
            f"SELECT format('{verb} ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE "
            "NOREPLICATION NOBYPASSRLS PASSWORD %L', CAST(:role AS text), CAST(:pw AS text))"
        ),
        {"role": AGENT_ROLE, "pw": password},
    ).scalar_one()
    connection.exec_driver_sql(statement.replace("%", "%%"))
    schema = connection.execute(text("SELECT current_schema()")).scalar_one()
    tables = list(
        connection.execute(
            text(
                "SELECT tablename FROM pg_tables WHERE schemaname = :schema "
                "AND tablename LIKE 'procrastinate\\_%' ORDER BY tablename"
            ),
            {"schema": schema},
        ).scalars()
    )
    sequences = list(
        connection.execute(
            text(
                "SELECT sequencename FROM pg_sequences WHERE schemaname = :schema "
                "AND sequencename LIKE 'procrastinate\\_%'"
            ),
            {"schema": schema},
        ).scalars()
    )
    quote = connection.dialect.identifier_preparer.quote
    role, where = quote(AGENT_ROLE), quote(schema)
    for grant in (
        f"REVOKE ALL ON ALL TABLES IN SCHEMA {where} FROM {role}",
        f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA {where} FROM {role}",
        f"GRANT USAGE ON SCHEMA {where} TO {role}",
        *(f"GRANT SELECT, INSERT, UPDATE, DELETE ON {where}.{quote(t)} TO {role}" for t in tables),
        *(f"GRANT USAGE, SELECT ON SEQUENCE {where}.{quote(s)} TO {role}" for s in sequences),
    ):
        connection.exec_driver_sql(grant)
    return tables
