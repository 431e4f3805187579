"""The page points each series keeps between reads (series_chart): used while the series'
stamp holds, read again when a run lands or a point's stage moves, never kept for a window or
on a read-only (replica) transaction."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.series import queries
from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, token

URL = "/api/v1/series/batch"


def _upload(client: TestClient, headers: dict[str, str], at: int) -> None:
    doc = document(
        metric(value=100.0 + at % 3),
        metric("latency_p99", "ms", "lower_is_better", value=5.0 + (at % 2) * 0.01),
        at=at,
    )
    post(client, headers, doc)


def _kept(session: Session) -> list[Any]:
    return session.execute(
        text("SELECT series_id, view, stamp, total, picked FROM series_chart ORDER BY 1")
    ).all()


def _series(body: dict[str, Any], name: str) -> dict[str, Any]:
    return next(s for s in body["series"] if s["metric"] == name)


def _mark_first_value(session: Session, sid: int, value: float) -> None:
    """Overwrite the kept row's first value: a read that shows it came from the kept row."""
    cols = orjson.loads(
        session.execute(
            text("SELECT columns FROM series_chart WHERE series_id = :s"), {"s": sid}
        ).scalar_one()
    )
    cols["value"][0] = value
    session.execute(
        text("UPDATE series_chart SET columns = :c WHERE series_id = :s"),
        {"c": orjson.dumps(cols).decode(), "s": sid},
    )


def test_kept_points_serve_the_page_until_a_run_lands(client: TestClient, session: Session) -> None:
    headers = auth(token(session, "uvhttp"))
    for i in range(30):
        _upload(client, headers, i)
    params = {"system": "uvhttp", "max_points": 10}
    cold = client.get(URL, params=params).json()
    kept = _kept(session)
    assert [(k[1], k[3]) for k in kept] == [("quick|10", 30), ("quick|10", 30)]
    assert all(
        k[4] == len(_series(cold, m)["points"]["run"])
        for k, m in zip(kept, ("requests_per_second", "latency_p99"), strict=True)
    )
    warm = client.get(URL, params=params).json()
    assert warm == cold  # the kept rows give the same answer
    rps = kept[0][0]
    _mark_first_value(session, rps, -1.0)
    marked = client.get(URL, params=params).json()
    assert _series(marked, "requests_per_second")["points"]["value"][0] == -1.0  # a kept row
    _upload(client, headers, 30)
    fresh = client.get(URL, params=params).json()
    series = _series(fresh, "requests_per_second")
    assert series["total"] == 31 and series["points"]["value"][0] == 100.0
    assert [k[3] for k in _kept(session)] == [31, 31]
    newest = fresh["runs"]["commit"][series["points"]["run"][-1]]
    assert newest == f"{30:07x}"


def test_a_stage_moving_reads_the_series_again(client: TestClient, session: Session) -> None:
    headers = auth(token(session, "uvhttp"))
    for i in range(12):
        _upload(client, headers, i)
    client.get(URL, params={"system": "uvhttp"})
    sid, _, stamp, *_ = _kept(session)[0]
    _mark_first_value(session, sid, -1.0)
    session.execute(
        text(
            "UPDATE measurement SET stage = 'confirmed' WHERE id = (SELECT max(id) "
            "FROM measurement WHERE series_id = :s)"
        ),
        {"s": sid},
    )
    body = client.get(URL, params={"system": "uvhttp"}).json()
    columns = [s["points"] for s in body["series"]]
    assert all(c["value"][0] in (100.0, 5.0) for c in columns)  # not the marked kept row
    assert sorted(c["stage"][-1] or "" for c in columns) == ["", "confirmed"]
    assert _kept(session)[0][2] != stamp


def test_windows_and_read_only_transactions_keep_nothing(
    client: TestClient, session: Session
) -> None:
    headers = auth(token(session, "uvhttp"))
    for i in range(12):
        _upload(client, headers, i)
    windowed = client.get(URL, params={"system": "uvhttp", "from": "2000-01-01T00:00:00Z"})
    assert windowed.status_code == 200 and len(windowed.json()["series"]) == 2
    assert _kept(session) == []
    on_primary = client.get(URL, params={"system": "uvhttp"}).json()
    session.execute(text("DELETE FROM series_chart"))
    session.execute(text("SET LOCAL transaction_read_only = on"))  # as on a standby
    answer = queries.read_batch(session=session, query=queries.BatchQuery(system="uvhttp"))
    assert answer.body is not None and orjson.loads(answer.body) == on_primary
    assert _kept(session) == []
