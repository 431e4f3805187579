"""The demo's metrics agree with the runner manifests of the systems that exist."""

import tomllib

from benchdash.config import REPO_ROOT
from benchdash.demo_data import SYSTEMS


def test_demo_metrics_match_the_manifests() -> None:
    checked = 0
    for manifest in (REPO_ROOT / "runners").glob("*/runner.toml"):
        data = tomllib.loads(manifest.read_text())
        if data["system"] not in SYSTEMS:
            continue
        declared = {m["name"]: (m["unit"], m["direction"]) for m in data.get("metrics", [])}
        for _, _, metrics in SYSTEMS[data["system"]]["benchmarks"]:
            for name, unit, direction, _ in metrics:
                assert declared.get(name) == (unit, direction), (data["system"], name)
                checked += 1
    assert checked > 0
