#!/bin/sh
# The base every runner image starts from (runners/*/Dockerfile, right after `FROM debian:bookworm`):
# a C toolchain (every system builds with one, or links with it), Python and git for the agent,
# and a venv at /opt/benchdash with the agent's dependencies.
# A stub package stands in for benchdash_runner's source, so source edits keep this layer; the
# image installs the real package (--no-deps) once the repository is copied in. runners/'s
# pyproject.toml and README.md are beside this script.
set -eu
here=$(dirname "$0")
apt-get update
apt-get install -y --no-install-recommends gcc g++ libc6-dev make pkg-config \
  python3 python3-venv git ca-certificates
rm -rf /var/lib/apt/lists/*
stub=$(mktemp -d)
cp "$here/pyproject.toml" "$here/README.md" "$stub/"
mkdir "$stub/benchdash_runner"
touch "$stub/benchdash_runner/__init__.py"
python3 -m venv /opt/benchdash
/opt/benchdash/bin/pip install --no-cache-dir "$stub[agent]"
rm -rf "$stub" "$here"
# The agent checks refs out of /src whoever owns it.
git config --global --add safe.directory '*'
