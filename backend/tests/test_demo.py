"""`benchdash demo` stores a realistic history with the injected events."""

from collections import Counter

from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash import demo


def test_demo_history(session: Session) -> None:
    stored = demo.load(session=session, runs=60)
    assert stored == 5 * 60 + 8
    levels = Counter(
        dict(session.execute(text("SELECT level, count(*) FROM verdict GROUP BY level")).all())
    )
    assert levels["fail"] >= 1 and levels["warn"] >= 1 and levels["noisy"] >= 1
    first_fail = session.execute(
        text(
            "SELECT r.external_id, v.change_pct FROM verdict v "
            "JOIN measurement m ON m.id = v.measurement_id "
            "JOIN run r ON r.id = m.run_id WHERE v.level = 'fail' ORDER BY r.started_at LIMIT 1"
        )
    ).one()
    assert first_fail.external_id == "demo-uvhttp-main-45" and 10 < first_fail.change_pct < 14
    systems = session.execute(text("SELECT slug FROM system ORDER BY slug")).scalars().all()
    assert systems == ["cachex", "galay-ssl", "pointsub", "relay", "uvhttp"]
    medium = session.execute(
        text(
            "SELECT avg(m.value) FROM measurement m JOIN benchmark b ON b.id = m.benchmark_id "
            "JOIN metric x ON x.id = m.metric_id JOIN run r ON r.id = m.run_id "
            "WHERE b.name = 'medium_concurrency' AND x.name = 'requests_per_second' "
            "AND r.external_id LIKE 'demo-uvhttp-main-%' AND r.started_at < "
            "(SELECT started_at FROM run WHERE external_id = 'demo-uvhttp-main-45')"
        )
    ).scalar_one()
    assert abs(medium - 16544) / 16544 < 0.01
    # Shares of a whole stay shares: no hit rate or success rate past 100 %.
    over = session.execute(
        text(
            "SELECT count(*) FROM measurement m JOIN metric x ON x.id = m.metric_id "
            "WHERE x.name IN ('hit_rate_pct', 'success_pct') "
            "AND (m.value > 100 OR m.max_value > 100)"
        )
    ).scalar_one()
    assert over == 0


def test_the_demo_steps_name_the_function_that_got_slower(session: Session) -> None:
    demo.load(session=session, runs=60)
    causes = dict(
        session.execute(
            text(
                "SELECT s.slug || '/' || b.name, a.root_cause FROM alert a "
                "JOIN system s ON s.id = a.system_id JOIN benchmark b ON b.id = a.benchmark_id "
                "JOIN branch br ON br.id = a.branch_id "
                "WHERE a.root_cause IS NOT NULL AND br.name = 'main'"
            )
        ).all()
    )
    relay, uvhttp = causes["relay/encryption"], causes["uvhttp/medium_concurrency"]
    assert relay["kind"] == "instructions" and uvhttp["kind"] == "cpu"
    assert relay["functions"][0]["name"] == "sha2::compress256"
    assert uvhttp["functions"][0]["name"] == "headers_find"
    # The step's cost, as a share of the last good run's total: 7 % and 1/0.88 - 1 = 13.6 %.
    assert 6.5 < relay["functions"][0]["pct_of_base_total"] < 7.5
    assert 11 < uvhttp["functions"][0]["pct_of_base_total"] < 16
    profiled = session.execute(text("SELECT count(DISTINCT run_id) FROM profile")).scalar_one()
    assert profiled == 60 + 60 + 8  # every relay and uvhttp run, the feature branch's too
