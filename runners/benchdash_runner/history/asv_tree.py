"""asv's `results/` tree: `results/benchmarks.json` beside one folder per machine, each holding
its `machine.json` and one result file per commit and environment (`<hash>-<env>.json`).

One run a result file: its commit (`commit_hash`), its date (`date`, asv's commit date, which
is also the order asv plots), its machine as the testbed, the environment name in the run's
configuration; the results are what `--format asv` reads from the file (parameter names and
kinds from benchmarks.json). The path may be the `results/` folder, one machine's folder or
result files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchdash_runner.adapters import asv
from benchdash_runner.adapters._base import AdapterError, load_json, number
from benchdash_runner.history.entries import (
    Entry,
    HistoryError,
    Options,
    document,
    external_id,
    from_ms,
    utc_key,
)

_NOT_RESULTS = {"machine.json", "benchmarks.json"}


def sniff(path: Path) -> bool:
    """A results tree, a machine folder or an asv result file."""
    if path.is_dir():
        return (path / "benchmarks.json").is_file() or (path / "machine.json").is_file()
    try:
        return path.suffix == ".json" and asv.sniff(load_json(path))
    except AdapterError:
        return False


def files(path: Path) -> list[Path]:
    """The result files under `path`, by name within each machine."""
    if path.is_file():
        return [path]
    machines = [path] if (path / "machine.json").is_file() else sorted(
        d for d in path.iterdir() if d.is_dir() and (d / "machine.json").is_file()
    )  # fmt: skip
    found = [f for m in machines for f in sorted(m.glob("*.json")) if f.name not in _NOT_RESULTS]
    if not found:
        raise HistoryError(path, "no asv result files (machine folders with <hash>-<env>.json)")
    return found


def read(path: Path, opts: Options) -> list[Entry]:
    """One entry a result file."""
    if opts.system is None:
        raise HistoryError(path, "an asv results tree names no system: pass --system")
    out = []
    for position, f in enumerate(files(path)):
        data: Any = load_json(f)
        if not asv.sniff(data):
            raise HistoryError(
                f, "not an asv result file (no result_columns, results, commit_hash)"
            )
        results = asv.parse([f])
        if not results:
            continue  # asv measured nothing here (every benchmark failed or was skipped)
        params = data.get("params") if isinstance(data.get("params"), dict) else {}
        machine = str(params.get("machine") or f.parent.name)
        started = from_ms(number(f, data.get("date"), "date (ms since the epoch)"))
        meta = {
            "external_id": external_id("asv", machine, f.stem),
            "commit": str(data["commit_hash"]),
            "started_at": started,
            "finished_at": started,
            "testbed": machine,
        }
        config = {"imported_from": "asv", "env_name": data.get("env_name"), "machine": machine}
        doc = document(
            opts=opts,
            system=opts.system,
            run=meta,
            results=results,
            configuration={k: v for k, v in config.items() if v is not None},
            environment={"python": data["python"]} if isinstance(data.get("python"), str) else {},
        )
        out.append(Entry(where=str(f), document=doc, order=(utc_key(started), position)))
    return out
