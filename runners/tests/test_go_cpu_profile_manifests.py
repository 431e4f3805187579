"""cachex and pointsub record CPU profiles only where their manifest's profile asks for it."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

RUNNERS = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("system", ["cachex", "pointsub"])
def test_quick_runs_stay_unprofiled_and_the_longer_profiles_ask(system: str) -> None:
    manifest = tomllib.loads((RUNNERS / system / "runner.toml").read_text())
    asks = {name: p.get("cpu_profile", False) for name, p in manifest["profiles"].items()}
    assert asks == {"quick": False, "standard": True, "full": True}
    assert manifest["schedule"]["profile"] == "quick"
    driver = (RUNNERS / system / "driver.py").read_text()
    assert 'drv.profile.get("cpu_profile", False)' in driver and "--cpu-profile" in driver
