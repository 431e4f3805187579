"""The profile endpoints: a run's profiles, one profile's tree, top functions and folded text,
and the differential profile by profile ids or by runs, with their 404 and 422 messages."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.fixtures.factories import auth, token
from tests.profiles.test_ingest import profiled

BASE = "main;enc;aes 100\nmain;enc 20\nmain;io 30\n"
HEAD = "main;enc;aes 110\nmain;enc 20\nmain;net 5\n"


def _upload(client: TestClient, headers: dict[str, str], stacks: str, at: int, **kw: Any) -> int:
    r = client.post("/api/v1/results", json=profiled(stacks, at=at, **kw), headers=headers)
    assert r.status_code == 201, r.text
    return int(r.json()["run"]["id"])


def _two_runs(client: TestClient, session: Session) -> tuple[int, int, list[Any]]:
    up = auth(token(session, "relay"))
    base, head = _upload(client, up, BASE, 0), _upload(client, up, HEAD, 1)
    listed = [client.get(f"/api/v1/runs/{r}/profiles").json() for r in (base, head)]
    return base, head, listed


def test_a_runs_profiles_and_one_profiles_tree(client: TestClient, session: Session) -> None:
    base_run, _, (listed, _) = _two_runs(client, session)
    assert len(listed) == 1
    summary = listed[0]
    assert summary["run_id"] == base_run and summary["benchmark"] == "encryption"
    assert summary["parameters"] == {"input": 1000} and summary["metric"] == "instructions"
    assert (summary["kind"], summary["unit"]) == ("instructions", "instructions")
    assert (summary["total"], summary["stacks_count"]) == (150, 3)
    detail = client.get(f"/api/v1/profiles/{summary['id']}").json()
    assert {k: detail[k] for k in summary} == summary
    tree = detail["tree"]
    assert (tree["name"], tree["value"], tree["self"]) == ("all", 150, 0)
    (main,) = tree["children"]
    assert [(c["name"], c["value"], c["self"]) for c in main["children"]] == [
        ("enc", 120, 20),
        ("io", 30, 30),
    ]
    assert main["children"][0]["children"] == [
        {"name": "aes", "value": 100, "self": 100, "children": []}
    ]
    assert detail["functions"] == [
        {"name": "aes", "self": 100, "inclusive": 100},
        {"name": "io", "self": 30, "inclusive": 30},
        {"name": "enc", "self": 20, "inclusive": 120},
    ]
    text = client.get(f"/api/v1/profiles/{summary['id']}", params={"format": "folded"})
    assert text.status_code == 200 and text.headers["content-type"].startswith("text/plain")
    assert text.text == "main;enc 20\nmain;enc;aes 100\nmain;io 30\n"


def _check_diff(diff: dict[str, Any], base_id: int, head_id: int) -> None:
    assert (diff["base"]["id"], diff["head"]["id"]) == (base_id, head_id)
    tree = diff["tree"]
    assert (tree["value"], tree["delta"], tree["base_value"]) == (135, -15, 150)
    main = tree["children"][0]
    by_name = {c["name"]: c for c in main["children"]}
    assert (by_name["io"]["value"], by_name["io"]["delta"]) == (0, -30), "removed: value 0"
    assert (by_name["net"]["base_value"], by_name["net"]["delta"]) == (0, 5), "added"
    assert (by_name["enc"]["value"], by_name["enc"]["delta"]) == (130, 10)
    assert diff["functions"][:2] == [
        {
            "name": "aes",
            "self_base": 100,
            "self_head": 110,
            "delta_self": 10,
            "pct_of_base_total": 100 * 10 / 150,
        },
        {
            "name": "net",
            "self_base": 0,
            "self_head": 5,
            "delta_self": 5,
            "pct_of_base_total": 100 * 5 / 150,
        },
    ]
    assert [f["name"] for f in diff["functions"]] == ["aes", "net", "enc", "io"], "leaves only"
    assert abs(diff["elsewhere_pct"]) < 1e-9, "every function is listed: nothing elsewhere"


def test_diff_by_profile_ids_and_by_runs(client: TestClient, session: Session) -> None:
    base_run, head_run, ((b,), (h,)) = _two_runs(client, session)
    by_ids = client.get("/api/v1/profiles/diff", params={"base": b["id"], "head": h["id"]})
    assert by_ids.status_code == 200, by_ids.text
    _check_diff(by_ids.json(), b["id"], h["id"])
    params = {"base_run": base_run, "head_run": head_run, "benchmark_id": b["benchmark_id"]}
    by_runs = client.get("/api/v1/profiles/diff", params=params)
    assert by_runs.status_code == 200, by_runs.text
    assert by_runs.json() == by_ids.json()
    cpu = client.get("/api/v1/profiles/diff", params={**params, "kind": "cpu"})
    assert cpu.status_code == 404
    assert (
        cpu.json()["detail"]
        == f"run {base_run} has no cpu profile of benchmark {b['benchmark_id']}"
    )


def test_not_found_and_invalid_requests_say_why(client: TestClient, session: Session) -> None:
    base_run, _, ((b,), _) = _two_runs(client, session)
    up = auth(token(session, "relay"))
    other = _upload(client, up, "x 1\n", 2, kind="cpu", unit="samples")
    (cpu,) = client.get(f"/api/v1/runs/{other}/profiles").json()
    r = client.get("/api/v1/profiles/diff", params={"base": b["id"], "head": cpu["id"]})
    assert r.status_code == 422
    assert r.json()["detail"] == (
        f"profiles {b['id']} (instructions, instructions) and {cpu['id']} (cpu, samples) count "
        "different things: a diff needs one kind and unit"
    )
    missing = client.get("/api/v1/profiles/999999")
    assert missing.status_code == 404 and missing.json()["detail"] == "no profile 999999"
    assert client.get("/api/v1/profiles/999999", params={"format": "folded"}).status_code == 404
    assert client.get("/api/v1/runs/999999/profiles").json()["detail"] == "no run 999999"
    r = client.get("/api/v1/profiles/diff", params={"base": b["id"], "head": 999999})
    assert r.status_code == 404 and r.json()["detail"] == "no profile 999999"
    params = {"base_run": base_run, "head_run": 999999, "benchmark_id": b["benchmark_id"]}
    r = client.get("/api/v1/profiles/diff", params=params)
    assert r.status_code == 404
    assert r.json()["detail"] == f"run 999999 has no profile of benchmark {b['benchmark_id']}"
    for bad in ({"base": b["id"]}, {"base": 1, "head": 2, "base_run": 3}, {}):
        r = client.get("/api/v1/profiles/diff", params=bad)
        assert r.status_code == 422 and "give base and head (profile ids)" in r.json()["detail"]
    r = client.get(f"/api/v1/profiles/{b['id']}", params={"format": "svg"})
    assert r.status_code == 422
    plain = client.get(f"/api/v1/runs/{other}/profiles")
    assert plain.status_code == 200 and plain.json()[0]["metric"] == "instructions"
