"""docker-compose.yml and the native launcher describe the same product (text checks; `make
test-compose` runs the stack for real)."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import re
import sys
from typing import Any

import yaml

from tests.integration.conftest import ROOT


def _launcher() -> Any:
    spec = importlib.util.spec_from_file_location("up", ROOT / "scripts" / "up.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["up"] = module
    spec.loader.exec_module(module)
    return module


COMPOSE: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
UP = _launcher()


def test_every_native_service_is_in_compose_and_back() -> None:
    native = UP.services()
    compose = {  # the scale profile is Compose only (test_compose_scale.py)
        k: v for k, v in COMPOSE["services"].items() if k != "db" and "profiles" not in v
    }
    assert set(compose) == set(native)
    assert {f"runner-{s}" for s in UP.systems()} <= set(native)


def test_commands_env_and_build_match() -> None:
    for name, svc in UP.services().items():
        spec = COMPOSE["services"][name]
        assert tuple(spec["command"]) == svc.command, name
        assert set(spec["environment"]) == set(svc.env), name
        assert spec["build"]["context"] == "."
        assert spec["build"]["dockerfile"] == svc.dockerfile
        assert (ROOT / svc.dockerfile).is_file(), svc.dockerfile


def test_each_agent_has_a_token_of_its_own_system() -> None:
    api = COMPOSE["services"]["api"]["environment"]
    pairs = dict(p.strip().split("=", 1) for p in api["BENCHDASH_AGENT_TOKENS"].split(","))
    assert "BENCHDASH_AGENT_TOKEN" not in api and "BENCHDASH_TOKEN" not in api
    for system in UP.systems():
        variable = UP.fleet.token_variable(system)
        runner = COMPOSE["services"][f"runner-{system}"]["environment"]
        assert runner["BENCHDASH_TOKEN"].startswith("${" + variable + ":?"), system
        assert pairs[system].startswith("${" + variable + ":?"), system
        assert not [k for k in runner if "PASSWORD" in k or "SECRET" in k or "AGENT_TOKEN" in k]
        assert "DATABASE_URL" not in runner, system  # agents ask the API, never the database


def test_dockerfiles_run_what_compose_runs() -> None:
    for name, svc in UP.services().items():
        text = (ROOT / svc.dockerfile).read_text()
        if name.startswith("runner-"):
            system = name.removeprefix("runner-")
            assert f'CMD ["benchdash-runner", "--system", "{system}"]' in text
            assert (
                "COPY . /src" in text and "pip install --no-cache-dir --no-deps ./runners" in text
            )
            assert "RUN sh /tmp/runner-base/base.sh" in text  # the shared base: the agent's venv
            assert (ROOT / "runners" / system / "runner.toml").is_file()
            assert (ROOT / "systems" / system).is_dir()
        else:
            assert "npm run build" in text and "benchdash-server" in text


def test_every_runner_image_starts_with_the_same_base() -> None:
    base = (ROOT / "runners" / "docker" / "base.sh").read_text()
    assert '[agent]"' in base and "/opt/benchdash" in base
    heads = set()
    for name, svc in UP.services().items():
        if name.startswith("runner-"):
            text = (ROOT / svc.dockerfile).read_text()
            heads.add(text[text.index("FROM debian:bookworm\n") : text.index("WORKDIR /src")])
    assert len(heads) == 1, heads  # identical first layers: built once, then cached


def test_db_is_postgres_16_with_volume_and_healthcheck() -> None:
    db = COMPOSE["services"]["db"]
    assert db["image"] == "postgres:16"
    assert any(v.startswith("pgdata:") for v in db["volumes"]) and "pgdata" in COMPOSE["volumes"]
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert COMPOSE["services"]["migrate"]["depends_on"]["db"]["condition"] == "service_healthy"


def test_env_example_lists_every_variable() -> None:
    example = (ROOT / ".env.example").read_text()
    listed = set(re.findall(r"^([A-Z_]+)=", example, re.M))
    used = {v for svc in UP.services().values() for v in svc.env}
    compose_vars = set(re.findall(r"\$\{([A-Z_]+)", (ROOT / "docker-compose.yml").read_text()))
    assert used | compose_vars <= listed, (used | compose_vars) - listed


def test_settings_read_what_the_launcher_passes() -> None:
    config = (ROOT / "backend" / "benchdash" / "config.py").read_text()
    for var in UP.API_ENV:
        if var.startswith("BENCHDASH_"):
            field = var.removeprefix("BENCHDASH_").lower()
            assert re.search(rf"^\s+{field}:", config, re.M), f"Settings lacks {field} ({var})"
    agent = (ROOT / "runners" / "benchdash_runner" / "agent" / "worker.py").read_text()
    for var in UP.RUNNER_ENV:
        assert f'"{var}"' in agent, f"the agent does not read {var}"


def test_compose_file_works_with_v1_and_v2() -> None:
    # Debian's docker-compose 1.29 rejects a top-level `name:` (make up passes -p benchdash).
    assert set(COMPOSE) <= {"services", "volumes", "networks"} | {
        k for k in COMPOSE if k.startswith("x-")
    }
    for name, spec in COMPOSE["services"].items():
        if name not in ("migrate", "db-replication"):  # the one-shot ones
            assert spec.get("restart") == "unless-stopped", name
        if name.startswith("runner-"):
            assert spec["depends_on"]["api"]["condition"] == "service_healthy", name
    assert "readyz" in " ".join(COMPOSE["services"]["api"]["healthcheck"]["test"])


def test_every_base_image_has_a_stand_in_recipe() -> None:
    loader = importlib.machinery.SourceFileLoader(
        "offline_images", str(ROOT / "scripts" / "offline-images")
    )
    spec = importlib.util.spec_from_loader("offline_images", loader)
    assert spec
    tool = importlib.util.module_from_spec(spec)
    loader.exec_module(tool)
    names = tool.names_in_use()
    assert "postgres:16" in names and "python:3.11-slim-bookworm" in names, names
    for name in names:
        repo = name.split(":")[0].split("/")[-1]
        assert (tool.RECIPES / f"{repo}.Dockerfile").is_file(), f"no stand-in recipe for {name}"
