"""The page points each series keeps between reads (series_chart): used while the series'
stamp holds, read again when a run lands or a point's stage moves, never kept for a window or
on a read-only (replica) transaction."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.kit import landed
from benchdash.series import queries, refresh
from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, token

URL = "/api/v1/series/batch"


def _doc(at: int) -> dict[str, Any]:
    return document(
        metric(value=100.0 + at % 3),
        metric("latency_p99", "ms", "lower_is_better", value=5.0 + (at % 2) * 0.01),
        at=at,
    )


def _upload(client: TestClient, headers: dict[str, str], at: int) -> None:
    post(client, headers, _doc(at))


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
    assert [(k[1], k[3]) for k in kept] == [('["quick",10]', 30), ('["quick",10]', 30)]
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


def test_a_landed_run_is_told_and_its_kept_views_are_refreshed_without_a_page_read(
    client: TestClient, session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    heard: list[tuple[str, str, str]] = []
    monkeypatch.setattr(landed, "_listeners", [heard.append])
    headers = auth(token(session, "uvhttp"))
    for i in range(20):
        _upload(client, headers, i)
    assert heard == [("uvhttp", "main", "tb-1")] * 20
    params = {"system": "uvhttp", "max_points": 10}
    client.get(URL, params=params)
    client.get(URL, params={"system": "uvhttp", "testbed": "tb-1"})  # every profile: a view too
    _upload(client, headers, 20)
    again = client.post("/api/v1/results", json=_doc(20), headers=headers)
    assert again.status_code == 200  # the same run again: stored before, nothing new told
    assert len(heard) == 21
    assert {k[3] for k in _kept(session)} == {20}
    read = queries.refresh_kept(session=session, system="uvhttp", branch="main", testbed="tb-1")
    assert read == 2 and {(k[1], k[3]) for k in _kept(session)} == {
        ('["quick",10]', 21),
        ("[null,200]", 21),
    }
    assert queries.refresh_kept(session=session, system="uvhttp", branch="x", testbed="y") == 0


def test_pending_views_are_due_when_their_uploads_pause_or_after_the_longest_wait() -> None:
    now = [0.0]
    pending = refresh.Pending(clock=lambda: now[0])
    a, b = ("s", "main", "tb-a"), ("s", "main", "tb-b")
    pending.mark(a)
    now[0] = 1.0
    pending.mark(b)
    assert pending.take_due() == []
    now[0] = refresh.QUIET_S
    assert pending.take_due() == [a]  # b's last upload was 1 s ago
    for t in range(2, 40):  # b uploads every second: never quiet...
        now[0] = float(t)
        pending.mark(b)
        due = pending.take_due()
        if due:
            break
    assert due == [b] and now[0] - 1.0 >= refresh.MAX_DELAY_S  # ...so due after the longest
    assert pending.take_due() == []
