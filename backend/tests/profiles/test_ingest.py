"""A result entry's profile is stored with its run: validated against the contract's limits
(422 naming the rule, nothing stored), once per run (a re-upload changes nothing), and a
document without profiles is stored as before."""

from __future__ import annotations

import gzip
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, text
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from tests.fixtures.factories import auth, document, metric, row_counts, token

STACKS = "main;relay::crypto::encrypt;aes::soft::encrypt 41234\nmain;relay::crypto::encrypt 6977\n"


def profiled(stacks: str = STACKS, *, at: int = 0, **extra: Any) -> dict[str, Any]:
    """A one-benchmark document whose entry carries an instructions profile."""
    doc = document(
        metric("instructions", "instructions", "lower_is_better", value=48211),
        system="relay",
        benchmark="encryption",
        parameters={"input": 1000},
        at=at,
    )
    doc["results"][0]["profile"] = {
        "kind": "instructions",
        "unit": "instructions",
        "metric": "instructions",
        "format": "folded",
        "stacks": stacks,
        **extra,
    }
    return doc


def _profiles(session: Session) -> list[Any]:
    return list(
        session.execute(
            text("SELECT run_id, kind, unit, total, stacks_count, data, metric_id FROM profile")
        ).all()
    )


def test_a_valid_profile_is_stored_once(client: TestClient, session: Session) -> None:
    up = auth(token(session, "relay"))
    first = client.post("/api/v1/results", json=profiled(), headers=up)
    assert first.status_code == 201, first.text
    rows = _profiles(session)
    assert len(rows) == 1
    run_id, kind, unit, total, count, data, metric_id = rows[0]
    assert (run_id, kind, unit) == (first.json()["run"]["id"], "instructions", "instructions")
    assert (total, count, metric_id is not None) == (41234 + 6977, 2, True)
    assert gzip.decompress(data).decode() == (
        "main;relay::crypto::encrypt 6977\nmain;relay::crypto::encrypt;aes::soft::encrypt 41234\n"
    )
    again = client.post("/api/v1/results", json=profiled(), headers=up)
    assert again.status_code == 200, again.text
    assert _profiles(session) == rows, "a re-upload stores nothing again"


LIMITS = [
    ("a;b 12\nc 1.5\n", "line 2: the weight '1.5' is not a non-negative integer"),
    ("a;b -3\n", "line 1: the weight '-3'"),
    ("a;b\n", "line 1: no weight"),
    ("a;;b 3\n", "line 1: an empty frame name"),
    (";a 3\n", "line 1: an empty frame name"),
    ("a\x00b 3\n", "line 1: a frame name contains NUL"),
    (f"{'x' * 1001} 3\n", "a frame name of 1001 characters, at most 1000"),
    (";".join(["f"] * 257) + " 1\n", "line 1: 257 frames, at most 256 per stack"),
    ("a 1\n" * 50_001, "50,001 stacks: at most 50,000 lines"),
    (f"a {2**63}\n", "line 1: the weight 9223372036854775808 is past 2^63-1"),
    (f"a {2**62}\nb {2**62}\n", "the weights add up past 2^63-1"),
    ("a 1\n" + "#" * (4 * 1024 * 1024), "stacks: String should have at most 4194304 characters"),
]


@pytest.mark.parametrize(("stacks", "message"), LIMITS, ids=[m[:30] for _, m in LIMITS])
def test_each_limit_is_a_422_naming_it_and_nothing_is_stored(
    client: TestClient, session: Session, stacks: str, message: str
) -> None:
    up = auth(token(session, "relay"))
    before = row_counts(session)
    r = client.post("/api/v1/results", json=profiled(stacks), headers=up)
    assert r.status_code in (413, 422), r.text
    if r.status_code == 422:
        assert message in r.json()["detail"], r.json()["detail"]
        assert r.json()["errors"][0]["loc"][:3] == ["results", 0, "profile"]
    assert row_counts(session) == before and _profiles(session) == []


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"metric": "cycles"}, "profile.metric 'cycles' is not a metric of this result"),
        ({"kind": "memory"}, "profile.kind"),
        ({"unit": "bytes"}, "profile.unit"),
        ({"format": "pprof"}, "profile.format"),
        ({"colour": "red"}, "profile.colour"),
    ],
)
def test_fields_outside_the_contract_are_422(
    client: TestClient, session: Session, extra: dict[str, Any], message: str
) -> None:
    up = auth(token(session, "relay"))
    r = client.post("/api/v1/results", json=profiled(**extra), headers=up)
    assert r.status_code == 422 and message in r.json()["detail"], r.text
    assert _profiles(session) == []


def test_two_profiles_of_one_kind_for_one_variant_are_refused(
    client: TestClient, session: Session
) -> None:
    up = auth(token(session, "relay"))
    doc = profiled()
    twin = {
        **doc["results"][0],
        "metrics": [metric("cycles", "cycles", "lower_is_better", value=9)],
    }
    twin["profile"] = {**twin["profile"], "metric": None}
    doc["results"].append(twin)
    before = row_counts(session)
    r = client.post("/api/v1/results", json=doc, headers=up)
    assert r.status_code == 422, r.text
    assert "results[1] repeats the instructions profile of benchmark 'encryption'" in r.text
    assert row_counts(session) == before and _profiles(session) == []


def test_a_document_without_profiles_is_unchanged(client: TestClient, session: Session) -> None:
    up = auth(token(session, "relay"))
    doc = profiled()
    del doc["results"][0]["profile"]
    r = client.post("/api/v1/results", json=doc, headers=up)
    assert r.status_code == 201, r.text
    assert _profiles(session) == []
    assert r.json()["verdicts"][0]["metric"] == "instructions"


def test_a_profile_costs_one_statement_and_a_document_without_none(
    client: TestClient, session: Session, connection: Connection
) -> None:
    up = auth(token(session, "relay"))
    assert client.post("/api/v1/results", json=profiled(at=0), headers=up).status_code == 201
    statements: list[str] = []

    def count(*args: Any) -> None:
        statements.append(args[2])

    def upload(doc: dict[str, Any]) -> int:
        statements.clear()
        event.listen(connection, "before_cursor_execute", count)
        try:
            assert client.post("/api/v1/results", json=doc, headers=up).status_code == 201
        finally:
            event.remove(connection, "before_cursor_execute", count)
        return len(statements)

    plain = profiled(at=1)
    del plain["results"][0]["profile"]
    without = upload(plain)
    assert not any("INSERT INTO profile" in s for s in statements)
    with_profile = upload(profiled(at=2))
    assert with_profile == without + 1, statements
