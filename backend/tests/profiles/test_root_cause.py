"""A step alert names the functions that grew: two runs whose profiles differ in one function
by about +10 % of the total give an alert whose root cause lists that function first, with the
contract's summary, shown on the alert list and in the notification."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.notify import messages
from tests.fixtures.factories import auth, token
from tests.profiles.test_ingest import profiled

JITTER = (1.0, 1.002, 0.998, 1.001, 0.999)
GOOD = "main;relay::crypto::cbc_encrypt 500\nmain;relay::io::read 300\nmain 200\n"
# cbc_encrypt +98 (9.8 % of the 1,000 total), io::read +3 (0.3 %): the injected slowdown.
BAD = "main;relay::crypto::cbc_encrypt 598\nmain;relay::io::read 303\nmain 200\n"
SUMMARY = "+9.8 % in relay::crypto::cbc_encrypt, +0.3 % elsewhere"


def _run(client: TestClient, up: dict[str, str], value: float, stacks: str, at: int) -> int:
    doc = profiled(stacks, at=at)
    doc["results"][0]["metrics"][0]["value"] = value * JITTER[at % 5]
    r = client.post("/api/v1/results", json=doc, headers=up)
    assert r.status_code == 201, r.text
    return int(r.json()["run"]["id"])


def _opened(session: Session) -> list[dict[str, Any]]:
    rows = session.execute(
        text("SELECT payload FROM notify_delivery WHERE event = 'alert.opened'")
    ).scalars()
    return list(rows)


def test_a_step_alert_names_the_function_that_grew(client: TestClient, session: Session) -> None:
    up = auth(token(session, "relay"))
    admin = auth(token(session, "relay", scope="admin"))
    runs = [_run(client, up, 48_000, GOOD, 0)]
    hook = {
        "system": "relay",
        "name": "ops",
        "channel": "webhook",
        "target": "http://127.0.0.1:9/h",
    }
    assert client.post("/api/v1/notifications/subscriptions", json=hook, headers=admin).is_success
    runs += [_run(client, up, 48_000, GOOD, at) for at in range(1, 15)]
    runs += [_run(client, up, 52_800, BAD, at) for at in range(15, 19)]  # +10 % instructions
    (alert,) = client.get("/api/v1/alerts").json()
    assert (alert["run_id"], alert["last_good_run_id"]) == (runs[15], runs[14])
    cause = alert["root_cause"]
    assert cause is not None, alert
    assert cause["functions"][0]["name"] == "relay::crypto::cbc_encrypt"
    assert cause["functions"][0]["delta_self"] == 98
    assert abs(cause["functions"][0]["pct_of_base_total"] - 9.8) < 1e-9
    assert [f["name"] for f in cause["functions"]] == [
        "relay::crypto::cbc_encrypt",
        "relay::io::read",
    ], "only functions that grew"
    assert cause["summary"] == SUMMARY
    assert abs(cause["elsewhere_pct"] - 0.3) < 1e-9
    assert (cause["kind"], cause["unit"]) == ("instructions", "instructions")
    assert (cause["base_total"], cause["head_total"]) == (1000, 1101)
    profiles = [client.get(f"/api/v1/runs/{r}/profiles").json()[0]["id"] for r in runs[14:16]]
    assert [cause["base_profile_id"], cause["head_profile_id"]] == profiles
    run_page = client.get(f"/api/v1/runs/{runs[15]}").json()
    assert run_page["alerts"][0]["root_cause"] == cause
    (payload,) = _opened(session)
    assert payload["alert"]["root_cause"] == SUMMARY
    assert payload["text"].endswith(f"Profile: {SUMMARY}.")


def test_an_alert_without_profiles_has_no_root_cause(client: TestClient, session: Session) -> None:
    up = auth(token(session, "relay"))
    for at in range(19):
        doc = profiled(at=at)
        del doc["results"][0]["profile"]
        doc["results"][0]["metrics"][0]["value"] = (48_000 if at < 15 else 52_800) * JITTER[at % 5]
        assert client.post("/api/v1/results", json=doc, headers=up).status_code == 201
    (alert,) = client.get("/api/v1/alerts").json()
    assert alert["root_cause"] is None


def test_the_notification_text_carries_the_summary_only_when_there_is_one() -> None:
    alert = {
        "change_pct": 10.0,
        "direction": "lower_is_better",
        "unit": "instructions",
        "benchmark": "encryption",
        "metric": "instructions",
        "level": "fail",
        "run_id": 7,
        "commit": "abc",
    }
    plain = messages.alert_payload(event="alert.opened", system="relay", branch="main", alert=alert)
    assert "Profile:" not in plain["text"]
    rich = messages.alert_payload(
        event="alert.opened", system="relay", branch="main", alert={**alert, "root_cause": SUMMARY}
    )
    assert rich["text"] == plain["text"] + f" Profile: {SUMMARY}."
