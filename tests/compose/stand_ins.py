"""What the stand-in base images are: the names in use, their recipes, the Debian root.

Used by scripts/offline-images (which builds them); see that script for the why.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RECIPES = ROOT / "tests" / "compose" / "stand-ins"
ROOTFS = "benchdash-stand-in/bookworm-rootfs"
KNOWN = "debian:bookworm, python:3.11-slim-bookworm, node:20-bookworm-slim, golang:X.Y-bookworm, "
KNOWN += "rust:X.Y-bookworm, postgres:16, nginx:stable-bookworm"

Files = list[tuple[Path, str]]  # (path on this machine, name in the build context)


def run_out(cmd: list[str]) -> str:
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()


def names_in_use() -> list[str]:
    """Every external image our Dockerfiles start FROM, and the compose file's `image:`s."""
    found: list[str] = []
    for dockerfile in [ROOT / "backend" / "Dockerfile", *sorted(ROOT.glob("runners/*/Dockerfile"))]:
        stages: set[str] = set()
        pattern = r"^FROM\s+(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?"
        for m in re.finditer(pattern, dockerfile.read_text(), re.M | re.I):
            if m[1] not in stages and m[1] != "scratch":
                found.append(m[1])
            if m[2]:
                stages.add(m[2])
    compose = (ROOT / "docker-compose.yml").read_text()
    found += re.findall(r"^\s+image:\s*[\"']?([^\s\"']+)", compose, re.M)
    return list(dict.fromkeys(found))


def debian_sources() -> tuple[str, str]:
    """The Debian mirror apt uses here, and a sources.list for bookworm (+ updates, security)."""
    text = ""
    for path in ["/etc/apt/sources.list", *sorted(glob.glob("/etc/apt/sources.list.d/*"))]:
        text += Path(path).read_text(errors="replace") + "\n" if os.path.isfile(path) else ""
    uris = [
        u.rstrip("/") for u in re.findall(r"^(?:URIs:|deb(?:\s+\[[^]]*])?)\s+(\S+)", text, re.M)
    ]
    mirror = os.environ.get("BENCHDASH_DEBIAN_MIRROR") or next(
        (u for u in uris if u.endswith("/debian")), "http://deb.debian.org/debian"
    )
    security = next((u for u in uris if u.endswith("/debian-security")), None)
    sources = f"deb {mirror} bookworm main\ndeb {mirror} bookworm-updates main\n"
    return mirror, sources + (f"deb {security} bookworm-security main\n" if security else "")


def _unmount_below(path: Path) -> None:
    """Mounts an interrupted debootstrap left (proc, sys) must go before rm -rf."""
    mounts = [line.split()[1] for line in Path("/proc/mounts").read_text().splitlines()]
    for point in sorted((m for m in mounts if m.startswith(f"{path}/")), reverse=True):
        subprocess.run(["umount", "-l", point], check=False)


def build_rootfs() -> None:
    """debootstrap a minbase bookworm and import it as ROOTFS."""
    if shutil.which("debootstrap") is None:
        sys.exit("offline-images: debootstrap is missing: apt-get install debootstrap")
    mirror, _ = debian_sources()
    tmp = Path(tempfile.mkdtemp(prefix="benchdash-rootfs-", dir="/var/tmp"))
    log = tmp.with_suffix(".log")
    try:
        print(f"offline-images: debootstrap --variant=minbase bookworm from {mirror}", flush=True)
        with log.open("w") as out:
            cmd = ["debootstrap", "--variant=minbase", "bookworm", str(tmp / "root"), mirror]
            if subprocess.call(cmd, stdout=out, stderr=subprocess.STDOUT) != 0:
                sys.exit(f"offline-images: debootstrap failed, its log: {log}")
        tar = subprocess.Popen(["tar", "-C", str(tmp / "root"), "-c", "."], stdout=subprocess.PIPE)
        imported = subprocess.run(
            ["docker", "import", "--change", 'CMD ["bash"]', "-", ROOTFS],
            stdin=tar.stdout,
            capture_output=True,
            text=True,
            check=False,
        )
        if tar.wait() != 0 or imported.returncode != 0:
            sys.exit(f"offline-images: importing the root failed: {imported.stderr.strip()}")
        log.unlink()
    finally:
        _unmount_below(tmp)
        shutil.rmtree(tmp, ignore_errors=True)


def _check_version(name: str, wanted: str, have: str) -> None:
    if not (have + ".").startswith(wanted + "."):
        sys.exit(f"offline-images: {name} needs version {wanted}, this machine has {have}")


def recipe(name: str) -> tuple[str, Files, dict[str, str]]:
    """The recipe file, host files and build args of the stand-in for `name`."""
    repo, _, tag = name.partition(":")
    repo = repo.removeprefix("docker.io/").removeprefix("library/")
    release = tag.removesuffix("-bookworm")
    if (repo, tag) in {
        ("debian", "bookworm"),
        ("python", "3.11-slim-bookworm"),
        ("nginx", "stable-bookworm"),
    }:
        return repo, [], {}
    if (repo, tag) == ("node", "20-bookworm-slim"):
        node = Path(shutil.which("node") or sys.exit("offline-images: node is not installed"))
        _check_version(name, "20", run_out([str(node), "--version"]).removeprefix("v"))
        npm = Path(shutil.which("npm") or sys.exit("offline-images: npm is missing")).resolve()
        return "node", [(node.resolve(), "node"), (npm.parents[1], "npm")], {}
    if repo == "golang" and tag.endswith("-bookworm"):
        version = run_out(["go", "env", "GOVERSION"]).removeprefix("go")
        _check_version(name, release, version)
        return "golang", [(Path(run_out(["go", "env", "GOROOT"])), "go")], {"VERSION": version}
    if repo == "rust" and tag.endswith("-bookworm"):
        version = run_out(["rustc", "--version"]).split()[1]
        _check_version(name, release, version)
        sysroot = Path(run_out(["rustc", "--print", "sysroot"]))
        return "rust", [(sysroot, "rust")], {"VERSION": version}
    if (repo, tag) == ("postgres", "16"):
        found = sorted(ROOT.glob(".venv/lib/python3*/site-packages/pgserver/pginstall"))
        if not found:
            sys.exit("offline-images: postgres:16 comes from the pgserver wheel: run make install")
        pg = found[-1]
        _check_version(
            name, "16", run_out([str(pg / "bin" / "pg_config"), "--version"]).split()[-1]
        )
        entry = RECIPES / "postgres-entrypoint.sh"
        files = [(pg, "pg"), (pg.parents[1] / "pgserver.libs", "pglibs"), (entry, entry.name)]
        return "postgres", files, {}
    sys.exit(f"offline-images: no stand-in recipe for {name!r} (known: {KNOWN})")
