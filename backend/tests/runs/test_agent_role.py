"""The agents' database role reaches the job queue and host locks, and nothing else."""

from __future__ import annotations

import pytest
from sqlalchemy import Connection, text
from sqlalchemy.exc import ProgrammingError

from benchdash.runs.agent_role import AGENT_ROLE, ensure_agent_role

CLOSED = ("api_token", "app_user", "user_session", "run", "run_event", "measurement", "system")


def _as_agent(connection: Connection, sql: str) -> object:
    with connection.begin_nested():
        connection.exec_driver_sql(f"SET LOCAL ROLE {AGENT_ROLE}")
        return connection.execute(text(sql)).scalar()


def test_the_role_uses_the_queue_only(connection: Connection) -> None:
    tables = ensure_agent_role(connection=connection, password="first")
    ensure_agent_role(connection=connection, password="second")  # a later migrate: ALTER
    assert tables == [
        "procrastinate_events",
        "procrastinate_jobs",
        "procrastinate_periodic_defers",
        "procrastinate_workers",
    ]
    role = connection.execute(
        text(
            "SELECT rolsuper, rolcreaterole, rolcreatedb, rolcanlogin FROM pg_roles "
            "WHERE rolname = :r"
        ),
        {"r": AGENT_ROLE},
    ).one()
    assert tuple(role) == (False, False, False, True)
    # What a procrastinate worker and the host lock do:
    deferred = _as_agent(
        connection,
        "SELECT unnest(procrastinate_defer_jobs_v1(ARRAY[ROW('system.x', 'benchdash.run', 0, "
        "NULL, NULL, '{}'::jsonb, NULL)::procrastinate_job_to_defer_v1]))",
    )
    assert isinstance(deferred, int)
    assert _as_agent(connection, "SELECT count(*) FROM procrastinate_events") >= 1  # type: ignore[operator]
    worker = _as_agent(connection, "SELECT procrastinate_register_worker_v1()")
    assert isinstance(worker, int)
    assert _as_agent(connection, "SELECT pg_try_advisory_lock(hashtextextended('h', 0))")
    assert (
        _as_agent(
            connection, f"SELECT id FROM procrastinate_fetch_job_v2(ARRAY['system.x'], {worker})"
        )
        == deferred
    )
    for table in CLOSED:
        with pytest.raises(ProgrammingError, match="permission denied"):
            _as_agent(connection, f"SELECT count(*) FROM {table}")
    with pytest.raises(ProgrammingError, match="permission denied"):
        _as_agent(connection, "UPDATE run SET status = 'completed'")
