"""The Compose `scale` profile (docs/scaling.md) as written: text checks of docker-compose.yml,
the nginx configuration and the replication scripts. `make test-compose` runs the profile for
real (tests/compose/scale.py): uploads with a replica killed, runs by two agents, replica reads."""

from __future__ import annotations

import re
from typing import Any

from tests.integration.conftest import ROOT
from tests.integration.test_compose import COMPOSE, UP

SERVICES: dict[str, Any] = COMPOSE["services"]
SCALE = {name for name, spec in SERVICES.items() if "profiles" in spec}
NGINX = (ROOT / "deploy" / "nginx" / "nginx.conf").read_text()
PRIMARY = (ROOT / "deploy" / "postgres" / "primary.sh").read_text()
STANDBY = (ROOT / "deploy" / "postgres" / "standby.sh").read_text()


def test_the_profile_adds_services_and_changes_none() -> None:
    assert {
        "db-replication",
        "db-replica",
        "api-1",
        "api-2",
        "nginx",
        "agent-cachex-1",
        "agent-cachex-2",
    } == SCALE
    assert all(SERVICES[name]["profiles"] == ["scale"] for name in SCALE)
    assert set(SERVICES) - SCALE == {"db", *UP.services()}  # `up` without the profile: as before
    assert "pgreplica" in COMPOSE["volumes"]


def test_api_replicas_run_the_api_reading_from_the_standby() -> None:
    api = SERVICES["api"]
    for name in ("api-1", "api-2"):
        replica = SERVICES[name]
        assert replica["build"] == api["build"] and replica["command"] == api["command"]
        assert replica["healthcheck"] == api["healthcheck"]
        assert "ports" not in replica  # reached through nginx only
        env = dict(replica["environment"])
        read_url = env.pop("BENCHDASH_DATABASE_READ_URL")
        pool = int(env.pop("BENCHDASH_DB_POOL_SIZE"))
        proxies = env.pop("BENCHDASH_TRUSTED_PROXIES").split(",")
        base = dict(api["environment"])
        base.pop("BENCHDASH_TRUSTED_PROXIES")
        assert env == base, name  # the same settings; these three added or set
        # behind the profile's nginx: the Compose networks are the proxies to trust
        assert proxies == ["172.16.0.0/12", "192.168.0.0/16"], name
        assert read_url.startswith("postgresql://") and "@db-replica:5432/" in read_url
        assert 2 * 4 * pool <= 100 - 20  # PostgreSQL's default max_connections, `api` beside
        assert replica["depends_on"]["db-replica"]["condition"] == "service_healthy"
        assert replica["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


def test_the_standby_is_a_pg_basebackup_of_db_with_secrets_from_env() -> None:
    primary, standby = SERVICES["db-replication"], SERVICES["db-replica"]
    assert primary["image"] == standby["image"] == SERVICES["db"]["image"]
    assert any(v.startswith("pgdata:") for v in primary["volumes"])  # edits db's pg_hba.conf
    assert any(v.startswith("pgreplica:") for v in standby["volumes"])
    assert standby["depends_on"]["db-replication"]["condition"] == "service_completed_successfully"
    assert "pg_isready" in " ".join(standby["healthcheck"]["test"])
    for spec in (primary, standby):
        env = spec["environment"]
        assert env["POSTGRES_REPLICATION_PASSWORD"].startswith("${POSTGRES_REPLICATION_PASSWORD")
        assert spec["user"] == "postgres"
    assert re.search(
        r"pg_basebackup .*-X stream -R -S benchdash_standby", STANDBY.replace("\\\n", "")
    )
    assert "pg_create_physical_replication_slot('benchdash_standby')" in PRIMARY
    assert "host replication $user all scram-sha-256" in PRIMARY
    assert "max_slot_wal_keep_size" in PRIMARY  # a standby gone for good cannot fill the disk
    example = (ROOT / ".env.example").read_text()
    assert re.search(r"^POSTGRES_REPLICATION_PASSWORD=$", example, re.M)  # no secret in git


def test_nginx_balances_keeps_alive_fails_over_and_streams_events() -> None:
    nginx = SERVICES["nginx"]
    assert nginx["image"] == "nginx:stable-bookworm"
    assert "./deploy/nginx/nginx.conf:/etc/nginx/nginx.conf:ro" in nginx["volumes"]
    assert nginx["ports"] == ["${BENCHDASH_SCALE_PORT:-8080}:80"]
    upstream = re.search(r"upstream benchdash_api \{(.*?)\n    \}", NGINX, re.S)
    assert upstream
    servers = re.findall(r"^\s*server (\S+):8000 ", upstream[1], re.M)
    assert servers == ["api-1", "api-2"]
    assert all(nginx["depends_on"][s]["condition"] == "service_healthy" for s in servers)
    assert re.search(r"^\s*keepalive \d+;", upstream[1], re.M)
    assert "proxy_http_version 1.1;" in NGINX and 'proxy_set_header Connection "";' in NGINX
    next_upstream = re.search(r"proxy_next_upstream ([^;]+);", NGINX)
    assert next_upstream and {"error", "timeout", "http_502", "http_503"} <= set(
        next_upstream[1].split()
    )
    events = re.search(r"location ~ \^/api/v1/runs/\[0-9\]\+/events\$ \{(.*?)\}", NGINX, re.S)
    assert events and "proxy_buffering off;" in events[1]
    assert re.search(r"proxy_read_timeout (\d+)h;", events[1])  # past the 15 s keep-alives
    assert "$upstream_addr" in NGINX  # the access log names the replica that answered


def test_two_agents_of_one_system_share_its_queue_through_nginx() -> None:
    agents = {n: SERVICES[n] for n in ("agent-cachex-1", "agent-cachex-2")}
    runner = SERVICES["runner-cachex"]
    hosts = set()
    for name, agent in agents.items():
        env = agent["environment"]
        assert agent["build"] == runner["build"] and agent["command"] == runner["command"], name
        assert env["BENCHDASH_TOKEN"] == runner["environment"]["BENCHDASH_TOKEN"]
        assert env["BENCHDASH_URL"] == "http://nginx:80"
        assert not [k for k in env if "PASSWORD" in k or "SECRET" in k or "DATABASE" in k]
        assert agent["restart"] == "unless-stopped"
        hosts.add(env["BENCHDASH_HOST_ID"])
    assert len(hosts) == 2  # two machines' agents: they run at once


def test_docs_say_the_profile_is_compose_only() -> None:
    readme = (ROOT / "README.md").read_text()
    scaling = (ROOT / "docs" / "scaling.md").read_text()
    assert "--profile scale" in readme and "docs/scaling.md" in readme
    assert "Compose only" in readme and "Compose only" in scaling
    assert "migration 0018" in scaling
    assert "scale" not in (ROOT / "scripts" / "up.py").read_text()  # the launcher has none
