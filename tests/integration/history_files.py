"""History files as the tools write them, made from real captured output (runners/testdata).

`data_js`: github-action-benchmark's `data.js` for `tool: cargo`, built the way the action's
cargo extractor reads `cargo bench` (the libtest capture's lines: name, value, "± range",
"ns/iter"), one entry a commit with seeded noise and a step; `asv_tree`: asv's results tree,
the captured result file written again for other commits and dates (values scaled).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import shutil
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "runners" / "testdata"
_CARGO = re.compile(r"^test (\S+)\s+\.\.\. bench:\s+([\d,.]+) ns/iter \(\+/- ([\d,.]+)\)")
START = datetime(2024, 1, 1, tzinfo=UTC)
JST = timezone(timedelta(hours=9))


def sha(i: int, salt: str = "") -> str:
    """A commit id for entry `i`."""
    return hashlib.sha1(f"{salt}commit-{i}".encode()).hexdigest()


def cargo_benches() -> list[dict[str, Any]]:
    """The benches of the captured `cargo bench` output, as the action's cargo extractor."""
    out = []
    for line in (DATA / "libtest" / "bench.txt").read_text().splitlines():
        m = _CARGO.match(line)
        if m:
            value = float(m.group(2).replace(",", ""))
            out.append({"name": m.group(1), "value": value, "range": f"± {m.group(3)}",
                        "unit": "ns/iter"})  # fmt: skip
    assert out, "the libtest capture holds no bench lines"
    return out


def data_js(
    path: Path, n: int, *, step_at: int, step: float, salt: str = ""
) -> list[dict[str, Any]]:
    """Write a data.js of `n` cargo entries (bench_sort_1000 `step` times slower from entry
    `step_at` on) and a custom suite of n // 20 entries; return the cargo entries."""
    rng = random.Random(41)
    base = cargo_benches()
    custom = json.loads((DATA / "gab" / "bigger.json").read_text())
    cargo, extra = [], []
    for i in range(n):
        date = START + timedelta(hours=i)
        benches = []
        for b in base:
            factor = 1 + rng.gauss(0, 0.01)
            if i >= step_at and b["name"].endswith("bench_sort_1000"):
                factor *= step
            benches.append({**b, "value": round(b["value"] * factor, 2)})
        cargo.append(_entry(i, date, "cargo", benches, salt))
        if i % 20 == 0:
            again = [
                {**c, "value": round(c["value"] * (1 + rng.gauss(0, 0.01)), 2)} for c in custom
            ]
            extra.append(
                _entry(i, date + timedelta(minutes=5), "customBiggerIsBetter", again, salt)
            )
    data = {
        "lastUpdate": int((START + timedelta(hours=n)).timestamp() * 1000),
        "repoUrl": "https://github.com/example/fnv",
        "entries": {"Rust Benchmark": cargo, "Custom": extra},
    }
    path.write_text("window.BENCHMARK_DATA = " + json.dumps(data, indent=2) + "\n")
    return cargo


def _entry(
    i: int, date: datetime, tool: str, benches: list[dict[str, Any]], salt: str
) -> dict[str, Any]:
    who = {"email": "dev@example.org", "name": "Dev", "username": "dev"}
    commit = {
        "author": who, "committer": who, "distinct": True, "id": sha(i, salt),
        "message": f"change {i}",
        "timestamp": (date - timedelta(minutes=3)).astimezone(JST).isoformat(),
        "tree_id": sha(i, "tree"), "url": f"https://github.com/example/fnv/commit/{sha(i, salt)}",
    }  # fmt: skip
    return {
        "commit": commit,
        "date": int(date.timestamp() * 1000),
        "tool": tool,
        "benches": benches,
    }


def asv_tree(root: Path, n: int) -> list[tuple[str, int]]:
    """An asv results/ tree of `n` result files derived from the capture; (commit, date ms)
    of each, oldest first. File names do not sort by date (asv names them by hash)."""
    src = DATA / "asv" / "results"
    shutil.copy(src / "benchmarks.json", root / "benchmarks.json")
    machine = root / "capture"
    machine.mkdir()
    shutil.copy(src / "capture" / "machine.json", machine / "machine.json")
    (captured,) = [p for p in (src / "capture").glob("*.json") if p.name != "machine.json"]
    original = json.loads(captured.read_text())
    cols = original["result_columns"]
    made = []
    for i in range(n):
        doc = json.loads(json.dumps(original))
        commit, date = sha(i, "asv"), original["date"] + i * 3_600_000
        doc["commit_hash"], doc["date"] = commit, date
        scale = 1 + 0.01 * i
        for row in doc["results"].values():
            cells = dict(zip(cols, row, strict=False))
            row[cols.index("result")] = _scaled(cells["result"], scale)
            if "samples" in cols and cells.get("samples") is not None:
                row[cols.index("samples")] = _scaled(cells["samples"], scale)
        env = doc["env_name"]
        (machine / f"{commit[:8]}-{env}.json").write_text(json.dumps(doc))
        made.append((commit, date))
    return made


def _scaled(value: Any, scale: float) -> Any:
    if isinstance(value, list):
        return [_scaled(v, scale) for v in value]
    return (
        value * scale if isinstance(value, (int, float)) and not isinstance(value, bool) else value
    )
