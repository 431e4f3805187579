"""relay's instrumented profile (Callgrind through Gungraun) into the real API.

The API's run trigger (`POST /api/v1/runs`) accepts only quick/standard/full, so this drives the
profile's driver natively and uploads its document with the CI client; then the captured
outputs (runners/testdata/gungraun/relay: plain, and with `inject-slowdown`) show the detector
flagging the slowed functions' instruction series and nothing else.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from benchdash.regression.floors import MIN_HISTORY
from benchdash_runner import document
from benchdash_runner.adapters import gungraun as gungraun_adapter
from tests.integration.conftest import BIN, CLIENT, ROOT, Api

sys.path.insert(0, str(ROOT / "runners" / "relay"))
import relay_callgrind

DATA = ROOT / "runners" / "testdata" / "gungraun" / "relay"
IDS = [
    *(f"encryption/{n}" for n in (10, 1000, 10000)),
    *(f"decryption_uncached/{n}" for n in (10, 1000, 10000)),
    "simple_serialize",
    "complex_deserialize",
    "sse_parsing/message_start",
    "sse_parsing/content_block_delta",
]


def _upload(api: Api, path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BENCHDASH_URL": api.url, "BENCHDASH_TOKEN": api.token}
    for name in ("GITHUB_ACTIONS", "GITLAB_CI", "GITHUB_STEP_SUMMARY"):
        env.pop(name, None)
    cmd = [str(CLIENT), "upload", "--system", "relay", "--format", "benchdash", *extra, str(path)]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)


def _doc(
    capture: str,
    commit: str,
    external_id: str,
    out: Path,
    *,
    stacks: str | None = None,
    testbed: str = "it-relay-instr",
) -> Path:
    found = relay_callgrind.to_results(gungraun_adapter.parse([DATA / capture]), IDS)
    run = {"commit": commit, "branch": "main", "trigger": "ci", "profile": "instructions"}
    run |= {"external_id": external_id, "testbed": testbed}
    results = [relay_callgrind.merge([found[i]]) for i in IDS]
    if stacks:  # the captured Callgrind files of the same build
        profiles = relay_callgrind.profiles_of(DATA / stacks, IDS)
        results = [{**r, "profile": profiles[i]} for i, r in zip(IDS, results, strict=True)]
    doc = document.build(system="relay", run=run, results=results)
    out.write_text(json.dumps(doc))
    return out


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_the_driver_runs_callgrind_and_the_api_stores_the_counts(api: Api, tmp_path: Path) -> None:
    t0 = time.monotonic()
    env = {**os.environ, "PATH": f"{BIN}:{os.environ['PATH']}", "BENCHDASH_TESTBED": "it-drv"}
    driver = [str(BIN / "python"), "runners/relay/driver.py", "--profile", "instructions"]
    done = subprocess.run(
        [*driver, "--out", str(tmp_path)], cwd=ROOT, env=env, text=True, capture_output=True,
        timeout=1500, check=False,
    )  # fmt: skip
    print(f"relay instructions profile (build included): {time.monotonic() - t0:.0f} s")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "##benchdash progress 10/10 done" in done.stdout
    uploaded = _upload(api, tmp_path / "result.json")
    assert uploaded.returncode == 0, uploaded.stdout + uploaded.stderr
    runs = _get(api, "/api/v1/runs?system=relay")["items"]
    detail = _get(api, f"/api/v1/runs/{runs[0]['id']}")
    units = {(_id(m), m["metric"]): m["unit"] for m in detail["measurements"]}
    assert set(units) == {(i, n) for i in IDS for n in ("instructions", "estimated_cycles")}
    assert {units[(i, "instructions")] for i in IDS} == {"instructions"}
    assert {units[(i, "estimated_cycles")] for i in IDS} == {"cycles"}
    # each bench's Callgrind profile, its total the bench's instruction count
    stored = _get(api, f"/api/v1/runs/{runs[0]['id']}/profiles")
    counts = {_id(m): m["median"] for m in detail["measurements"] if m["metric"] == "instructions"}
    assert sorted(_id(p) for p in stored) == sorted(IDS)
    for p in stored:
        assert (p["kind"], p["unit"], p["metric"]) == (
            "instructions",
            "instructions",
            "instructions",
        )
        assert p["total"] == counts[_id(p)], _id(p)
    first = _get(api, f"/api/v1/profiles/{stored[0]['id']}")
    [root] = first["tree"]["children"]
    assert "__gungraun_wrapper_mod::" in root["name"] and root["value"] == stored[0]["total"]


def test_the_injected_slowdown_fails_its_series_only(api: Api, tmp_path: Path) -> None:
    for i in range(MIN_HISTORY):  # the detector judges nothing before MIN_HISTORY runs
        path = _doc("instructions.txt", f"{i:07x}", f"it-instr-{i}", tmp_path / f"{i}.json")
        done = _upload(api, path)
        assert done.returncode == 0, done.stdout + done.stderr
    summary = tmp_path / "summary.md"
    slow = _doc("slowdown.txt", "badc0de", "it-instr-slow", tmp_path / "slow.json")
    done = _upload(api, slow, "--summary", str(summary))
    assert done.returncode == 2, done.stdout + done.stderr  # a fail verdict
    rows = [line.split(" | ") for line in summary.read_text().splitlines() if line.startswith("| ")]
    flagged = [(row[1], row[2]) for row in rows if "fail" in row[0] or "warn" in row[0]]
    # 13 % more instructions at 1 kB and 10 kB: fail (> 10 %); 10 B (+3.75 %) and every
    # untouched function stay ok.
    assert len(flagged) == 4 and {(s.split("]")[0], m) for s, m in flagged} == {
        ("[decryption_uncached {input=1000}", "estimated_cycles"),
        ("[decryption_uncached {input=1000}", "instructions"),
        ("[decryption_uncached {input=10000}", "estimated_cycles"),
        ("[decryption_uncached {input=10000}", "instructions"),
    }


def _get(api: Api, path: str) -> Any:
    import urllib.request

    with urllib.request.urlopen(api.url + path, timeout=10) as r:
        return json.load(r)


def _id(m: dict[str, Any]) -> str:
    params = m["parameters"]
    return f"{m['benchmark']}/{params['input']}" if "input" in params else str(m["benchmark"])


def test_the_slowdowns_alert_names_the_function_that_grew(api: Api, tmp_path: Path) -> None:
    for i in range(MIN_HISTORY):
        path = _doc(
            "instructions.txt", f"{i:07x}", f"it-cause-{i}", tmp_path / f"{i}.json",
            stacks="callgrind", testbed="it-relay-cause",
        )  # fmt: skip
        assert _upload(api, path).returncode == 0
    for j in range(4):  # the step persists: the detector confirms it
        path = _doc(
            "slowdown.txt", f"bad{j:04x}", f"it-cause-slow-{j}", tmp_path / f"s{j}.json",
            stacks="callgrind-slowdown", testbed="it-relay-cause",
        )  # fmt: skip
        _upload(api, path)  # exit 2 (a fail verdict) is expected
    alerts = [
        a
        for a in _get(api, "/api/v1/alerts?system=relay")
        if a["testbed"] == "it-relay-cause" and a["metric"] == "instructions"
    ]
    assert {(a["benchmark"], a["parameters"]["input"]) for a in alerts} == {
        ("decryption_uncached", 1000),
        ("decryption_uncached", 10000),
    }
    big = next(a for a in alerts if a["parameters"]["input"] == 10000)
    cause = big["root_cause"]
    assert cause is not None, big
    # decode_into is inlined into the bench function (LTO): its extra work is that frame's self
    # cost, +25,078 of 187,815 instructions; nothing else grew.
    wrapper = "instructions::decryption_uncached::__gungraun_wrapper_mod::decryption_uncached"
    assert [(f["name"], f["delta_self"]) for f in cause["functions"]] == [(wrapper, 25_078)]
    assert (cause["base_total"], cause["head_total"]) == (187_815, 212_893)
    assert cause["summary"] == f"+13.4 % in {wrapper}, +0.0 % elsewhere"
