"""Servers under Callgrind: totals, the cycle estimate, per-request metrics, uvhttp's exact-count
client and the instrumented profiles' manifests."""

from __future__ import annotations

import sys
import threading
import tomllib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from benchdash_runner import callgrind, driving, instrumented, profiles

ROOT = Path(__file__).resolve().parents[1]
CAPTURED = ROOT / "testdata" / "gungraun" / "relay" / "callgrind" / "crypto"
sys.path.insert(0, str(ROOT / "uvhttp"))

import uvhttp_bench as bench  # noqa: E402
import uvhttp_instructions as ui  # noqa: E402


def test_totals_and_the_cycle_estimate_match_what_gungraun_printed() -> None:
    out = CAPTURED / "decryption_uncached.input_10000"
    costs = callgrind.totals(sorted(out.glob("callgrind.*.out")))
    assert costs["Ir"] == 187_815 == callgrind.read(out.glob("callgrind.*.out")).total
    # Gungraun, same run: L1 hits 259136, LL hits 333, RAM hits 116, estimated cycles 264861
    assert callgrind.estimated_cycles(costs) == 259_136 + 5 * 333 + 35 * 116 == 264_861
    assert callgrind.estimated_cycles({"Ir": 5}) is None  # no cache simulation


def test_per_request_metrics_divide_the_counted_stretch(tmp_path: Path) -> None:
    costs = {"Ir": 4_000_000, "Dr": 1_000_000, "Dw": 500_000, "I1mr": 100, "D1mr": 200}
    costs |= {"D1mw": 300, "ILmr": 10, "DLmr": 20, "DLmw": 30}
    found = instrumented.per_request(instrumented.Measured(tmp_path / "x", costs), 2000)
    assert [(m["name"], m["unit"], m["value"]) for m in found] == [
        ("instructions_per_request", "instructions", 2000.0),
        ("estimated_cycles_per_request", "cycles", (5_499_400 + 5 * 540 + 35 * 60) / 2000),
    ]
    only_ir = instrumented.Measured(tmp_path / "x", {"Ir": 3000})
    assert [m["name"] for m in instrumented.per_request(only_ir, 3)] == ["instructions_per_request"]


class _Counting(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive
    seen: list[tuple[int, str, str, bytes]] = []  # noqa: RUF012 (one test server at a time)

    def _answer(self) -> None:
        size = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(size) if size else b""
        self.seen.append((self.client_address[1], self.command, self.path, body))
        payload = b"x" * (100_000 if self.path == "/large" else 2)
        self.send_response(200)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(payload)

    do_GET = do_POST = do_HEAD = _answer

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def http_port() -> Iterator[int]:
    _Counting.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Counting)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("name", ["low_concurrency", "response_size/large", "method/post"])
def test_the_client_sends_exactly_n_requests_over_its_connections(
    http_port: int, name: str
) -> None:
    scenario = bench.SCENARIOS[name]
    assert ui.send(http_port, scenario, 25, 3) > 0
    seen = _Counting.seen
    assert len(seen) == 25 and {(m, p) for _, m, p, _ in seen} == {(scenario.method, scenario.path)}
    per_connection = sorted(sum(1 for s in seen if s[0] == port) for port in {s[0] for s in seen})
    assert per_connection == [8, 8, 9]
    assert {b for *_, b in seen} == {bench.POST_BODY.encode() if scenario.body else b""}


def test_the_client_refuses_an_error_status(http_port: int) -> None:
    missing = bench.Scenario("x", "x", 1, 1, path="/nope", method="PUT")
    with pytest.raises(ValueError, match="status 501"):
        ui.send(http_port, missing, 1, 1)


@pytest.mark.parametrize("system", ["relay", "galay-ssl", "uvhttp"])
def test_the_instructions_profiles_attach_profiles_and_declare_their_metrics(system: str) -> None:
    manifest = tomllib.loads((ROOT / system / "runner.toml").read_text())
    profile = manifest["profiles"]["instructions"]
    assert profile["attach_profiles"] is True and profile["repetitions"] == 1
    declared = {m["name"]: m for m in manifest["metrics"]}
    names = (
        ("instructions", "estimated_cycles")
        if system == "relay"
        else (instrumented.PER_REQUEST, instrumented.CYCLES_PER_REQUEST)
    )
    assert [declared[n]["unit"] for n in names] == ["instructions", "cycles"]
    if system != "relay":
        assert set(profile["parameters"]) == set(profile["scenarios"])
    driving.select(profile["scenarios"], None)  # names the driver accepts
    if system != "relay":  # relay shares 4 MiB among its benches (relay_callgrind)
        assert profiles.MAX_BYTES * len(profile["scenarios"]) < 5 << 20  # one document
